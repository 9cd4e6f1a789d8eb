"""systemd/install.sh: its dry run here changes nothing; the real thing runs in a fresh Debian
bookworm made with debootstrap (as root only), twice (the second run changes nothing and keeps the
operator PIN), then --uninstall. Nothing real happens outside that chroot."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "systemd" / "install.sh"
IS_ROOT = os.geteuid() == 0
DEBOOTSTRAP = shutil.which("debootstrap") or next((p for p in ("/usr/sbin/debootstrap",) if os.access(p, os.X_OK)), None)
MIRROR = os.environ.get("SENET_DEBIAN_MIRROR", "http://deb.debian.org/debian")
#: What install.sh makes on a real machine; a dry run must leave each as it was.
INSTALLED = ["/opt/senet-companion", "/etc/senet", "/etc/senet/companion.toml", "/var/lib/senet",
             "/etc/systemd/system/senet-companion.service",
             "/etc/systemd/system/multi-user.target.wants/senet-companion.service"]
SKIPPED = "not in this system's apt sources (not Raspberry Pi OS?); skipped"
#: The source tree as it goes into the chroot: no virtualenv, history, caches or test pictures.
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "venv", "test-artifacts", "__pycache__", "*.pyc", ".pytest_cache",
                                    ".ruff_cache", ".hypothesis", ".mypy_cache", "*.egg-info", "build", "dist", "out")
#: A clean environment for the chroot (no virtualenv, pip settings or paths of this machine), with its proxy if any.
CHROOT_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
              "TERM": "dumb"} | {k: v for k, v in os.environ.items() if k.lower() in ("http_proxy", "https_proxy", "no_proxy")}


@dataclass
class Result:
    returncode: int
    output: str  # stdout and stderr together, in order
    seconds: float


def call(command: list[str], timeout: float, env: dict[str, str] | None = None) -> Result:
    """Run a command; on a timeout kill it with everything it started (apt, pip) and say so."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        output += f"\n(killed after {timeout:.0f} s: {' '.join(command)})"
    return Result(process.returncode, output, time.monotonic() - start)


def state() -> dict[str, object]:
    """What a dry run must not change: the installation's paths, the users and the groups."""
    seen: dict[str, object] = {path: (os.lstat(path).st_mtime_ns if os.path.lexists(path) else None) for path in INSTALLED}
    for name in ("/etc/passwd", "/etc/group"):
        seen[name] = Path(name).read_text() if os.path.exists(name) else None
    return seen


# --- the dry run, the syntax ------------------------------------------------------------------


def test_the_dry_run_shows_every_step_and_changes_nothing() -> None:
    before = state()
    result = call(["bash", str(SCRIPT), "--dry-run"], timeout=120)
    assert result.returncode == 0, result.output
    out = result.output
    for heading in ("1/6 apt packages", "2/6 the program in /opt/senet-companion (virtualenv", "3/6 the user senet",
                    "4/6 the configuration /etc/senet/companion.toml", "5/6 the service senet-companion",
                    "6/6 the address phones open"):
        assert heading in out, out
    if not os.path.exists("/opt/senet-companion/.venv"):
        assert "python3 -m venv --system-site-packages /opt/senet-companion/.venv" in out
    if not os.path.exists("/etc/senet/companion.toml"):
        assert "would write /etc/senet/companion.toml" in out
    assert "useradd" in out or "already there: the user senet" in out
    assert "senet-companion.service" in out
    assert "systemctl enable senet-companion" in out or "already enabled" in out
    assert not re.search(r"^ *\+ ", out, re.MULTILINE), out  # nothing ran
    assert out.rstrip().endswith("Dry run: nothing was changed.")
    assert state() == before


def as_nobody() -> list[str]:
    """A command prefix that runs as an unprivileged user (nothing when this is one already)."""
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if IS_ROOT else []


@pytest.mark.skipif(IS_ROOT and shutil.which("setpriv") is None, reason="setpriv is not installed")
def test_without_root_it_refuses_but_the_dry_run_works() -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", "LANG": "C.UTF-8"}
    if call([*as_nobody(), "test", "-r", str(SCRIPT)], timeout=30, env=env).returncode != 0:
        pytest.skip("the checkout is not readable by other users")
    refused = call([*as_nobody(), "bash", str(SCRIPT)], timeout=60, env=env)
    assert refused.returncode == 1 and "run it as root: sudo" in refused.output, refused.output
    before = state()
    dry = call([*as_nobody(), "bash", str(SCRIPT), "--dry-run"], timeout=120, env=env)
    assert dry.returncode == 0, dry.output
    assert "6/6 the address phones open" in dry.output
    assert state() == before


def test_help_and_an_unknown_option() -> None:
    help_text = call(["bash", str(SCRIPT), "--help"], timeout=30)
    assert help_text.returncode == 0 and "--dry-run" in help_text.output and "--uninstall" in help_text.output
    wrong = call(["bash", str(SCRIPT), "--frobnicate"], timeout=30)
    assert wrong.returncode != 0 and "unknown option: --frobnicate" in wrong.output


def test_the_script_parses() -> None:
    result = call(["bash", "-n", str(SCRIPT)], timeout=30)
    assert result.returncode == 0, result.output
    assert os.access(SCRIPT, os.X_OK), "systemd/install.sh must be executable (sudo systemd/install.sh)"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_finds_nothing() -> None:
    result = call(["shellcheck", str(SCRIPT)], timeout=60)
    assert result.returncode == 0, result.output


# --- the real thing, in a fresh Debian bookworm -----------------------------------------------


def mounts_under(root: Path) -> list[str]:
    """The mount points inside ``root`` (deepest first), from /proc/self/mountinfo."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), line.split()[4])
        if point == str(root) or point.startswith(f"{root}/"):
            found.append(point)
    return sorted(found, key=len, reverse=True)


def unmount_all(root: Path) -> list[str]:
    """Unmount everything inside ``root`` (debootstrap's own mounts too, should it have failed); what is left."""
    for point in mounts_under(root):
        if subprocess.run(["umount", point], capture_output=True).returncode != 0:
            subprocess.run(["umount", "--lazy", point], capture_output=True)
    return mounts_under(root)


@dataclass
class Bookworm:
    """A Debian bookworm root, and what install.sh did in it."""

    root: Path
    timings: dict[str, float] = field(default_factory=dict)
    runs: dict[str, Result] = field(default_factory=dict, repr=False)
    facts: dict[str, object] = field(default_factory=dict, repr=False)

    def run(self, name: str, *command: str, timeout: float = 120, user: str | None = None) -> Result:
        as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"] if user else []
        result = call(["chroot", str(self.root), "/usr/bin/env", "-i", *(f"{k}={v}" for k, v in CHROOT_ENV.items()),
                       *as_user, *command], timeout=timeout)
        self.runs[name] = result
        self.timings[name] = result.seconds
        return result

    def path(self, inside: str) -> Path:
        return self.root / inside.lstrip("/")

    def group_members(self, group: str) -> list[str] | None:
        for line in self.path("/etc/group").read_text().splitlines():
            name, _, _, members = line.split(":")
            if name == group:
                return members.split(",") if members else []
        return None

    def group_name(self, gid: int) -> str | None:
        return next((line.split(":")[0] for line in self.path("/etc/group").read_text().splitlines()
                     if line.split(":")[2] == str(gid)), None)

    def user(self, name: str) -> list[str] | None:
        return next((line.split(":") for line in self.path("/etc/passwd").read_text().splitlines()
                     if line.split(":")[0] == name), None)

    def config(self) -> str:
        return self.path("/etc/senet/companion.toml").read_text()


def pin_of(config: str) -> str | None:
    found = re.search(r'^admin_pin = "([^"]*)"', config, re.MULTILINE)
    return found[1] if found else None


def trust_this_machines_certificates(root: Path) -> None:
    """Where HTTPS goes through a proxy with a certificate authority of its own (as on some build
    machines), the chroot's pip must trust it as this machine does: its local CAs go into the chroot."""
    local = Path("/usr/local/share/ca-certificates")
    certificates = list(local.rglob("*.crt")) if local.is_dir() else []
    if certificates:
        target = root / "usr/local/share/ca-certificates"
        target.mkdir(parents=True, exist_ok=True)
        for certificate in certificates:
            shutil.copy(certificate, target / certificate.name)
        subprocess.run(["chroot", str(root), "update-ca-certificates"], capture_output=True, check=True, env=CHROOT_ENV)


def report(request: pytest.FixtureRequest, line: str) -> None:
    """A line in pytest's output as it runs (the timings), past its capture; and in the captured output."""
    print(line)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.ensure_newline()
            reporter.write_line(f"[test_install] {line}")


@pytest.fixture(scope="module")
def bookworm(request: pytest.FixtureRequest) -> Iterator[Bookworm]:
    """debootstrap once; install.sh for real, a second time, a dry-run uninstall, then --uninstall,
    each followed by what it left (later steps change the root, so the facts are taken as it goes)."""
    if not IS_ROOT:
        pytest.skip("needs root (debootstrap, chroot)")
    if DEBOOTSTRAP is None:
        pytest.skip("debootstrap is not installed (apt-get install debootstrap)")
    # /var/tmp, not /tmp: /tmp may be a tmpfs mounted nodev, where the root's /dev/null would not work.
    root = Path(tempfile.mkdtemp(prefix="senet-install-bookworm-", dir="/var/tmp"))
    root.chmod(0o755)  # the root's /: mkdtemp makes it 0700, which would shut out the user senet
    box = Bookworm(root)
    box.facts["this machine before"] = state()
    try:
        started = time.monotonic()
        # systemd: for systemctl enable, which works offline (without systemd running) as on a Pi being set up.
        made = call([DEBOOTSTRAP, "--variant=minbase", "--include=systemd,ca-certificates", "bookworm", str(root), MIRROR],
                    timeout=480)
        box.timings["debootstrap"] = made.seconds
        if made.returncode != 0:
            pytest.fail(f"debootstrap failed:\n{made.output[-3000:]}")
        trust_this_machines_certificates(root)
        shutil.copy("/etc/resolv.conf", root / "etc/resolv.conf")
        shutil.copytree(ROOT, root / "src", symlinks=True, ignore=NOT_COPIED)
        # The root has its own /dev (debootstrap made the nodes), so only a proc of its own is mounted.
        subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)

        first = box.run("first install", "bash", "/src/systemd/install.sh", timeout=480)
        box.facts["senet exists"] = box.path("/opt/senet-companion/.venv/bin/senet").is_file()
        box.run("config check", "/opt/senet-companion/.venv/bin/senet", "config", "check", "/etc/senet/companion.toml")
        box.run("config check as senet", "/opt/senet-companion/.venv/bin/senet", "config", "check",
                "/etc/senet/companion.toml", user="senet")
        box.run("numpy", "/opt/senet-companion/.venv/bin/python", "-c", "import numpy; print(numpy.__version__)")
        box.facts["senet"] = box.user("senet")
        box.facts["members"] = {group: box.group_members(group) for group in ("video", "gpio")}
        box.facts["state folder"] = box.run("state folder", "stat", "-c", "%U:%G %a", "/var/lib/senet").output.strip()
        box.facts["unit"] = box.path("/etc/systemd/system/senet-companion.service").is_file()
        wants = box.path("/etc/systemd/system/multi-user.target.wants/senet-companion.service")
        box.facts["wants"] = os.readlink(wants) if wants.is_symlink() else None
        if first.returncode == 0:
            config = box.path("/etc/senet/companion.toml")
            box.facts["config"] = box.config()
            box.facts["config mode"] = config.stat().st_mode & 0o7777
            box.facts["config owner"] = (config.stat().st_uid, box.group_name(config.stat().st_gid))
        box.run("second install", "bash", "/src/systemd/install.sh", timeout=300)
        box.facts["config after second"] = box.config() if box.path("/etc/senet/companion.toml").exists() else None
        box.run("dry-run uninstall", "bash", "/src/systemd/install.sh", "--uninstall", "--dry-run")
        box.facts["installed after dry-run uninstall"] = (box.path("/opt/senet-companion").exists(), box.user("senet") is not None,
                                                          box.path("/etc/systemd/system/senet-companion.service").exists())
        box.run("uninstall", "bash", "/src/systemd/install.sh", "--uninstall", timeout=300)
        box.timings["total"] = time.monotonic() - started
        box.facts["this machine after"] = state()
        report(request, "timings: " + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in box.timings.items()))
        yield box
    finally:
        left = unmount_all(root)
        if left:  # never delete through a mount into this machine
            report(request, f"NOT removed {root}: still mounted there: {left}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def test_installs_in_a_fresh_debian(bookworm: Bookworm) -> None:
    first = bookworm.runs["first install"]
    assert first.returncode == 0, first.output[-5000:]
    assert f"python3-picamera2: {SKIPPED}: the camera module will not work, a USB camera will" in first.output
    assert f"python3-lgpio: {SKIPPED}" in first.output
    installs = [line for line in first.output.splitlines() if "+ apt-get install" in line]
    assert installs and not any("picamera2" in line or "lgpio" in line for line in installs), installs
    assert bookworm.facts["senet exists"]
    check = bookworm.runs["config check"]
    assert check.returncode == 0 and "companion.toml: fine" in check.output, check.output
    # The service's user reads it (0640 root:senet) and runs the program.
    as_senet = bookworm.runs["config check as senet"]
    assert as_senet.returncode == 0, as_senet.output
    assert "Phones open http://" in first.output and "▀" in first.output  # the address and its QR code
    assert "Done: Senet Companion is installed" in first.output


def test_the_configuration_has_a_fresh_pin_and_is_private(bookworm: Bookworm) -> None:
    first = bookworm.runs["first install"]
    assert first.returncode == 0, first.output[-5000:]
    config = str(bookworm.facts["config"])
    pin = pin_of(config)
    assert pin is not None and re.fullmatch(r"[0-9]{6}", pin), config
    assert f"Operator PIN: {pin} — write it down; it is in /etc/senet/companion.toml" in first.output
    assert pin not in bookworm.runs["config check"].output  # the check says "set", not the PIN
    for line in ('store = "/var/lib/senet/matches.db"', 'settings = "/var/lib/senet/settings.json"', 'camera = "auto"',
                 "idle_reset_minutes = 20"):
        assert line in config
    assert config.startswith("#") and "docs/configuration.md" in config.split("\n\n")[0]
    assert bookworm.facts["config mode"] == 0o640
    assert bookworm.facts["config owner"] == (0, "senet")


def test_the_user_senet_is_in_video_and_gpio(bookworm: Bookworm) -> None:
    first = bookworm.runs["first install"]
    assert first.returncode == 0, first.output[-5000:]
    assert "the group gpio does not exist here (not a Raspberry Pi?): creating it" in first.output
    assert "+ useradd --system" in first.output
    senet = bookworm.facts["senet"]
    assert senet is not None, "no user senet"
    assert senet[5] == "/var/lib/senet" and senet[6] == "/usr/sbin/nologin", senet
    assert int(senet[2]) < 1000  # a system user
    members = bookworm.facts["members"]
    assert "senet" in members["video"] and "senet" in members["gpio"], members
    assert bookworm.facts["state folder"] == "senet:senet 750"


def test_the_unit_is_installed_and_enabled(bookworm: Bookworm) -> None:
    first = bookworm.runs["first install"]
    assert first.returncode == 0, first.output[-5000:]
    assert "+ install -m 0644 /src/systemd/senet-companion.service /etc/systemd/system/senet-companion.service" in first.output
    assert "+ systemctl enable senet-companion" in first.output
    assert bookworm.facts["unit"]
    assert bookworm.facts["wants"] == "/etc/systemd/system/senet-companion.service"
    assert "Created symlink /etc/systemd/system/multi-user.target.wants/senet-companion.service" in first.output
    assert "systemd is not running here: the service will start at the next boot" in first.output
    second = bookworm.runs["second install"].output
    assert "already there: /etc/systemd/system/senet-companion.service" in second and "already enabled" in second


def test_numpy_in_the_virtualenv_is_1x(bookworm: Bookworm) -> None:
    numpy = bookworm.runs["numpy"]
    assert numpy.returncode == 0, numpy.output
    assert int(numpy.output.strip().split(".")[0]) < 2, numpy.output


def test_a_second_run_changes_nothing_and_keeps_the_pin(bookworm: Bookworm) -> None:
    second = bookworm.runs["second install"]
    assert second.returncode == 0, second.output[-5000:]
    out = second.output
    assert bookworm.facts["config after second"] == bookworm.facts["config"]  # not rewritten: the PIN is the same
    assert "Operator PIN" not in out
    for step in ("python3 python3-venv", "/opt/senet-companion has the same files", "the virtualenv (with the system", "/opt/senet-companion is installed in the virtualenv",
                 "the user senet in video gpio", "/var/lib/senet", "companion.toml is kept as it is", "senet-companion.service"):
        assert any("already there: " in line and step in line for line in out.splitlines()), (step, out)
    ran = [line for line in out.splitlines() if line.startswith("    + ")]
    assert all(" rsync " in f" {line} " or "senet config check" in line for line in ran), ran  # compared and checked only
    assert "Nothing needed doing: everything was already there and right." in out


def test_uninstall_keeps_the_matches_and_the_configuration(bookworm: Bookworm) -> None:
    dry = bookworm.runs["dry-run uninstall"]
    assert dry.returncode == 0, dry.output
    assert "would run: rm -rf /opt/senet-companion" in dry.output and "would run: userdel senet" in dry.output
    assert bookworm.facts["installed after dry-run uninstall"] == (True, True, True)

    gone = bookworm.runs["uninstall"]
    assert gone.returncode == 0, gone.output
    assert not bookworm.path("/opt/senet-companion").exists()
    assert bookworm.user("senet") is None
    assert not bookworm.path("/etc/systemd/system/senet-companion.service").exists()
    assert not bookworm.path("/etc/systemd/system/multi-user.target.wants/senet-companion.service").is_symlink()
    assert bookworm.path("/var/lib/senet").is_dir() and bookworm.path("/etc/senet/companion.toml").is_file()
    assert "kept /var/lib/senet" in gone.output and "sudo rm -rf /var/lib/senet /etc/senet" in gone.output


def test_this_machine_is_left_as_it_was(bookworm: Bookworm) -> None:
    """Everything real happened in the chroot: this machine's installation paths, users and groups are unchanged."""
    assert bookworm.facts["this machine after"] == bookworm.facts["this machine before"]
