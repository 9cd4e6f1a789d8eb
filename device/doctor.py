"""``senet doctor``: is this machine ready to run the companion? One line per check
(``ok``, ``note`` or ``PROBLEM``), and under each problem how to fix it.

It checks Python and the packages that matter, the configuration, the camera (the picture
it took is saved, and the mat's markers are looked for in it), the pins, the disk where the
matches are kept, the clock, the network with the phones' address (and its QR code) and
the page's port. The exit status is for scripts: 0 all is well, 1 something needs fixing,
2 the configuration is broken.

Every check is a small function returning :class:`Check` values; the camera and the pins
are reached through what the caller hands in, so tests pass fakes.

    >>> problem = check_packages({"numpy": "2.1.0", "opencv-python-headless": "4.11.0", "gpiozero": "2.0.1",
    ...                           "flask": "3.1.0", "waitress": "3.0.2", "picamera2": "0.3.19"})[-1]
    >>> print(problem.format(), end="")
    PROBLEM numpy: numpy 2.1.0 with picamera2 0.3.19: apt's picamera2 is built for numpy 1 and fails to load
            fix: pip install 'numpy<2' (in the companion's virtualenv)
"""

from __future__ import annotations

import errno
import importlib
import importlib.metadata
import importlib.util
import io
import shutil
import socket
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from senet.device.address import network_addresses, phone_url
from senet.device.config import Config, ConfigError, load_config
from senet.device.lights import Wiring, pin_factory
from senet.vision.sources import CameraError, EndOfFrames, FrameSource, open_source, parse_camera

#: The picture of the camera check, written into ``--out``.
PICTURE = "doctor-camera.png"
#: Pictures read from a live camera before the one kept (its exposure settles meanwhile).
WARM_UP_FRAMES = 5
#: Less free space than this where the matches are kept is a problem, less than NOTE_BYTES a note.
PROBLEM_BYTES, NOTE_BYTES = 100 * 1000**2, 1000**3
#: A clock before this year has not been set since the Pi booted (a Pi has no battery clock).
EARLIEST_YEAR = 2025
#: The packages that matter, by their distribution names (picamera2 only on the Pi).
PACKAGES = ("numpy", "opencv-python-headless", "gpiozero", "flask", "waitress")
#: The service's name (systemd/senet-companion.service), for the fixes that need it stopped.
SERVICE = "senet-companion"
STOP_SERVICE = f"if the companion service is running, it holds it: 'sudo systemctl stop {SERVICE}' first, start it again after"

CameraOpener = Callable[[str, tuple[int, int]], FrameSource]


class Status(Enum):
    OK = "ok"
    NOTE = "note"
    PROBLEM = "PROBLEM"


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report: what was checked, how it stands, and the fix for a problem."""

    name: str
    status: Status
    message: str
    fix: str = ""
    #: Printed under the line as it is (the phone address's QR code).
    detail: str = ""

    def format(self, detail: bool = True) -> str:
        """The report's lines for this check (with ``detail`` under them, unless told not to)."""
        lines = [f"{self.status.value:<7} {self.name}: {self.message}"]
        if self.fix:
            lines.append(f"{'':<7} fix: {self.fix}")
        return "\n".join(lines) + "\n" + (self.detail if detail else "")


def ok(name: str, message: str, detail: str = "") -> Check:
    return Check(name, Status.OK, message, detail=detail)


def note(name: str, message: str, fix: str = "") -> Check:
    return Check(name, Status.NOTE, message, fix)


def problem(name: str, message: str, fix: str) -> Check:
    return Check(name, Status.PROBLEM, message, fix)


# --- 1. Python and the packages ------------------------------------------------------------

def check_python(version: tuple[int, ...] = tuple(sys.version_info[:3]), executable: str = sys.executable) -> Check:
    """Python 3.11 or later (the virtualenv's Python is the one the service runs)."""
    text = ".".join(map(str, version))
    if version[:2] < (3, 11):
        return problem("python", f"Python {text} ({executable}) is too old",
                       "use Python 3.11 or later (Raspberry Pi OS Bookworm has 3.11): make the virtualenv with it")
    return ok("python", f"Python {text} ({executable})")


def package_versions() -> tuple[dict[str, str | None], str]:
    """The installed version of each package that matters (None: not installed) and, when
    picamera2 is there but does not load, why ("" otherwise)."""
    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    try:
        import cv2  # opencv-python or -headless: the module knows its version whichever installed it

        versions["opencv-python-headless"] = cv2.__version__
    except ImportError:
        pass
    versions["picamera2"], failure = None, ""
    if importlib.util.find_spec("picamera2") is not None:
        try:
            module = importlib.import_module("picamera2")
        except Exception as error:  # apt's picamera2 with numpy 2: "numpy.dtype size changed", and the like
            versions["picamera2"], failure = "(version unknown)", f"{type(error).__name__}: {error}"
        else:
            try:
                versions["picamera2"] = importlib.metadata.version("picamera2")
            except importlib.metadata.PackageNotFoundError:
                versions["picamera2"] = str(getattr(module, "__version__", "(version unknown)"))
    return versions, failure


def check_packages(versions: Mapping[str, str | None], picamera2_failure: str = "") -> list[Check]:
    """The packages' versions on one line; a missing one, numpy 2 beside picamera2, or a
    picamera2 that does not load are problems."""
    found = ", ".join(f"{name} {versions[name]}" for name in PACKAGES if versions.get(name))
    picamera2 = versions.get("picamera2")
    found += f"; picamera2 {picamera2}" if picamera2 else "; picamera2 not installed (only the Pi camera needs it)"
    checks = [ok("packages", found)]
    missing = [name for name in PACKAGES if not versions.get(name)]
    if missing:
        checks.append(problem("packages", f"not installed: {', '.join(missing)}",
                              "pip install -e . in the companion's folder, inside its virtualenv"))
    numpy = versions.get("numpy") or ""
    numpy_2 = numpy.split(".")[0].isdigit() and int(numpy.split(".")[0]) >= 2
    if numpy_2 and picamera2:
        checks.append(problem("numpy", f"numpy {numpy} with picamera2 {picamera2}: apt's picamera2 is built for numpy 1 "
                                       "and fails to load", "pip install 'numpy<2' (in the companion's virtualenv)"))
    elif picamera2_failure:
        checks.append(problem("picamera2", f"installed but does not load: {picamera2_failure}",
                              "sudo apt install --reinstall python3-picamera2; the virtualenv needs --system-site-packages"))
    elif numpy_2:
        checks.append(note("numpy", f"numpy {numpy}: the Pi camera's picamera2 (from apt) needs numpy 1",
                           "on the Pi: pip install 'numpy<2'"))
    return checks


# --- 2. The configuration ------------------------------------------------------------------

def read_config(path: Path | None, system_config: Path) -> tuple[Config, Check]:
    """The configuration from ``path``, else from ``system_config`` when it exists, else the
    defaults; and the line saying which. ConfigError when the file cannot be used."""
    if path is None and not system_config.exists():
        return Config(), note("configuration", f"no configuration file ({system_config}): using the defaults",
                              "systemd/install.sh writes one; every key is in docs/configuration.md")
    chosen = path or system_config
    return load_config(chosen), ok("configuration", f"{chosen} loads")


def config_problem(error: ConfigError) -> Check:
    """The line for a configuration that cannot be used."""
    fix = "correct it (every key is in docs/configuration.md), then run senet doctor again"
    if "Permission denied" in str(error):
        fix = "run it as a user who may read the file: sudo senet doctor"
    elif str(error).startswith("cannot read"):
        fix = "check the path given to --config (the Pi's configuration is /etc/senet/companion.toml)"
    return problem("configuration", str(error), fix)


def check_admin_pin(config: Config) -> Check:
    """Whether the page's operator actions need a PIN."""
    if config.admin_pin:
        return ok("admin PIN", "set: undo, set position and new game on the page need it")
    return note("admin PIN", "not set: /admin (undo, set position, new game) is open to everyone on the network",
                'add admin_pin = "2468" (digits of your choice) to the configuration, then restart the service')


# --- 3. The camera and the mat -------------------------------------------------------------

def open_camera(camera: str, size: tuple[int, int]) -> FrameSource:
    """The configuration's camera, asking for ``size`` pictures; ``auto`` is the Pi camera
    (``senet run`` falls back to the simulator where there is none, the doctor says so).
    CameraError when it cannot be opened."""
    if camera != "auto":
        return open_source(camera, size)
    try:
        return open_source("picamera2", size)
    except CameraError as error:
        raise CameraError(f"no Pi camera found ({error}); senet run would use the simulator") from None


def camera_fix(camera: str, error: str = "") -> str:
    """How to get the named camera going (``error``: what opening it said)."""
    kind = "auto" if camera == "auto" else parse_camera(camera)[0]
    if "picamera2 is not installed" in error:
        return ("sudo apt install python3-picamera2, and make the companion's virtualenv with --system-site-packages "
                "(systemd/install.sh does both); on a machine without a Pi camera, --camera simulator checks the rest")
    if kind in ("auto", "picamera2"):
        return ("check the ribbon cable (switch the Pi off, contacts facing the right way, latch closed) and that "
                f"'libcamera-hello --list-cameras' lists the camera; a USB camera: set camera = \"usb:0\"; {STOP_SERVICE}")
    if kind == "usb":
        return f"plug in the USB camera ('ls /dev/video*' lists the cameras there are); {STOP_SERVICE}"
    return "check the path in camera (or --camera)"


def check_camera(camera: str, size: tuple[int, int], opener: CameraOpener, out_dir: Path) -> list[Check]:
    """Open the camera, read a picture, save it as ``doctor-camera.png`` in ``out_dir`` and
    look for the mat's markers in it."""
    live = camera == "auto" or parse_camera(camera)[0] in ("picamera2", "usb")
    try:
        source = opener(camera, size)
    except CameraError as error:
        return [problem("camera", f"cannot open {camera}: {error}", camera_fix(camera, str(error)))]
    try:
        frame = None
        for _ in range(WARM_UP_FRAMES if live else 1):
            frame = source.read()
    except (CameraError, EndOfFrames) as error:
        return [problem("camera", f"{camera} opened but gave no picture: {error or 'the recording is empty'}",
                        camera_fix(camera))]
    finally:
        source.close()
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        return [problem("camera", f"{camera} gave no picture", camera_fix(camera))]
    picture = np.ascontiguousarray(frame[:, :, :3] if frame.ndim == 3 else np.stack([frame] * 3, axis=-1), dtype=np.uint8)
    what = f"{camera} (a virtual table, not a camera)" if camera == "simulator" else camera
    height, width = picture.shape[:2]
    checks = [ok("camera", f"{what}: a {width}x{height} picture")]
    checks.append(save_picture(picture, out_dir))
    checks.append(check_markers(picture))
    return checks


def save_picture(picture: np.ndarray, out_dir: Path) -> Check:
    """Save the camera's picture as ``doctor-camera.png`` in ``out_dir``, and say where."""
    import cv2

    path = (out_dir / PICTURE).absolute()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        path.write_bytes(cv2.imencode(".png", picture)[1].tobytes())
    except OSError as error:
        return note("picture", f"cannot save the camera's picture as {path}: {error.strerror}", "choose another --out folder")
    return ok("picture", f"saved as {path}: it shows what the camera sees")


def check_markers(picture: np.ndarray) -> Check:
    """How many of the printed mat's markers the picture shows (the mat most of whose
    markers it shows, of those ``senet board mat`` prints)."""
    import cv2

    from senet.vision.geometry import BoardLocator, known_mats
    from senet.vision.mat import PAPERS

    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    best: tuple[int, int, str] = (0, len(known_mats()[0].markers), PAPERS[0])
    for paper, mat in zip(PAPERS, known_mats()):
        locator = BoardLocator(mat, min_markers=len(mat.markers))  # asking for all: small markers are looked for harder
        locator.detect(gray)
        best = max(best, (locator.markers_seen, len(mat.markers), paper))
    seen, total, paper = best
    if seen == total:
        return ok("mat", f"all {total} markers of the {paper.upper()} mat in view")
    look = f"look at {PICTURE} to see what the camera sees"
    if seen:
        return problem("mat", f"only {seen} of {total} markers in view",
                       f"move the camera up or back until the whole mat is in the picture, nothing covering its edges; {look}")
    dark = " (the picture is almost black: a lens cap, or no light?)" if picture.mean() < 15 else ""
    return problem("mat", f"the mat is not in view{dark}",
                   f"point the camera at the printed mat ('senet board mat' prints it) so that all of it shows; {look}")


# --- 4. The pins ----------------------------------------------------------------------------

def wiring_pins(wiring: Wiring) -> list[tuple[int, str]]:
    """Every pin of the wiring with its role, in the configuration's order.

    >>> wiring_pins(Wiring())[:2], wiring_pins(Wiring())[5]
    ([(17, 'green'), (27, 'red')], (12, 'sticks 1'))
    """
    pins = []
    for role in (f.name for f in fields(Wiring)):
        value = getattr(wiring, role)
        if isinstance(value, tuple):
            pins += [(pin, f"{role} {number}") for number, pin in enumerate(value, 1)]
        elif value is not None:
            pins.append((value, role))
    return pins


def running_on_pi(model: Path = Path("/proc/device-tree/model")) -> bool:
    """Whether this machine is a Raspberry Pi."""
    try:
        return "raspberry pi" in model.read_text(errors="replace").lower()
    except OSError:
        return False


def check_pins(wiring: Wiring, pin_factory: Any) -> list[Check]:
    """Claim each pin of the wiring once through gpiozero, and release it; a pin that cannot
    be claimed (another program has it) is a problem naming the pin and its role."""
    from gpiozero import LED, Button, Buzzer
    from gpiozero.exc import GPIOPinInUse
    from gpiozero.pins.mock import MockFactory

    checks = []
    if isinstance(pin_factory, MockFactory):
        if running_on_pi():
            checks.append(problem("pins", "this Raspberry Pi's pins cannot be driven: gpiozero found no pin library",
                                  "pip install -e '.[pi]' in the companion's virtualenv (it brings rpi-lgpio)"))
        else:
            checks.append(note("pins", "no GPIO here: pins checked against a mock"))
    pins = wiring_pins(wiring)
    failed = []
    for pin, role in pins:
        kind = Button if role.endswith("button") else Buzzer if role == "buzzer" else LED
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                device = kind(pin, pin_factory=pin_factory)
        except GPIOPinInUse:
            failed.append((role, f"pin {pin} ({role}) is in use"))
        except Exception as error:  # lgpio's "GPIO busy", a bad pin factory, ...
            failed.append((role, f"pin {pin} ({role}) cannot be claimed: {error}"))
        else:
            device.close()
    for role, message in failed:
        checks.append(problem("pins", message, f"another program has it: stop that program, or give {role} a free pin "
                                               f"under [pins] in the configuration; {STOP_SERVICE}"))
    if not failed:
        wired = ", ".join(f"{f.name} {' '.join(map(str, value)) if isinstance(value, tuple) else value}"
                          for f in fields(Wiring) if (value := getattr(wiring, f.name)) is not None)
        checks.append(ok("pins", f"all {len(pins)} claimed and released: {wired}"))
    return checks


# --- 5. to 8. Disk, clock, network, port ---------------------------------------------------

def _size(amount: float) -> str:
    """Bytes for people.

    >>> _size(68_000_000_000), _size(512_300_000)
    ('68.0 GB', '512 MB')
    """
    return f"{amount / 1000**3:.1f} GB" if amount >= 1000**3 else f"{amount / 1000**2:.0f} MB"


def store_folder(store: str, default: Path = Path("/var/lib/senet")) -> Path:
    """The folder the match store is in (or will be), else /var/lib/senet, else the current folder;
    the nearest that exists."""
    folder = Path(store).absolute().parent if store else default if default.exists() else Path.cwd()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_disk(store: str, usage: Callable[[Path], Any] = shutil.disk_usage) -> Check:
    """Free space where the matches are kept: below 100 MB a problem, below 1 GB a note."""
    folder = store_folder(store)
    where = f"in {folder}" + ("" if store else " (no match store configured: matches are not kept)")
    try:
        free = usage(folder).free
    except OSError as error:
        return problem("disk", f"cannot tell the free space {where}: {error.strerror}", "check that the folder is there")
    fix = "delete what is no longer needed ('sudo apt clean', 'sudo journalctl --vacuum-size=50M'), or use a larger SD card"
    if free < PROBLEM_BYTES:
        return problem("disk", f"only {_size(free)} free {where}: the match store may stop saving", fix)
    if free < NOTE_BYTES:
        return note("disk", f"{_size(free)} free {where}", fix)
    return ok("disk", f"{_size(free)} free {where}")


def ntp_synchronised() -> str | None:
    """``timedatectl``'s yes or no for a clock set by a time server; None where it cannot tell."""
    if shutil.which("timedatectl") is None:
        return None
    try:
        done = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                              capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() in ("yes", "no") else None


def check_clock(now: datetime | None = None, synchronised: Callable[[], str | None] = ntp_synchronised) -> list[Check]:
    """The clock: a year before 2025 is a problem (the times kept with matches would be
    wrong); not yet set by a time server, a note."""
    now = now or datetime.now().astimezone()
    shown = now.strftime("%Y-%m-%d %H:%M %Z").strip()
    if now.year < EARLIEST_YEAR:
        return [problem("clock", f"says {shown}: a Pi has no battery clock, and without a network it is not set",
                        "set the time (sudo date -s '2025-06-01 14:00'), or connect to the network once")]
    checks = [ok("clock", shown)]
    if synchronised() == "no":
        checks.append(note("clock", "not set by a time server yet (timedatectl: NTPSynchronized=no)",
                           "connect the Pi to a network with internet access; 'timedatectl status' shows when it is set"))
    return checks


def terminal_qr(url: str) -> str:
    """The address as a QR code of block characters, for a phone to scan off the screen."""
    import segno

    out = io.StringIO()
    segno.make(url).terminal(out=out, compact=True)
    return out.getvalue()


def check_network(config: Config, addresses: list[str] | None = None) -> list[Check]:
    """This machine's network addresses, and the address phones open (with its QR code)."""
    addresses = network_addresses() if addresses is None else addresses
    everywhere = config.host in ("0.0.0.0", "::", "")
    if not addresses:
        checks = [problem("network", "no network address: phones cannot reach the page",
                          "connect the Pi to the museum's Wi-Fi or network (sudo nmtui), then run senet doctor again")]
        if not config.public_address:
            return checks
    else:
        checks = [ok("network", f"this machine's addresses: {', '.join(addresses)}")]
    if not everywhere and (config.host.startswith("127.") or config.host in ("localhost", "::1")):
        checks.append(problem("phones", f"the page listens on {config.host} only: phones cannot reach it",
                              'set host = "0.0.0.0" in the configuration, then restart the service'))
        return checks
    url = phone_url(config.public_address if everywhere else config.host, config.port, addresses)
    checks.append(ok("phones", f"open {url} (or scan this)", detail=terminal_qr(url)))
    return checks


def check_port(host: str, port: int) -> Check:
    """Whether the page can listen on ``host:port``: free, or taken (by the running companion?)."""
    if port < 1024:
        return problem("port", f"{port} is below 1024: the service (user senet, no extra rights) cannot listen on it",
                       "set port = 8080 in the configuration (phones then open the address with :8080)")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host or None, port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a port just let go of is free
            probe.bind(address)
    except socket.gaierror as error:
        return problem("port", f"the page's host {host!r} is not an address of this machine: {error.strerror}",
                       'set host = "0.0.0.0" in the configuration')
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return note("port", f"something already listens on {port} (the companion service?)",
                        f"if the companion is not running, 'sudo ss -ltnp sport = :{port}' names the program that is")
        if error.errno == errno.EADDRNOTAVAIL:
            return problem("port", f"this machine has no address {host}: the page cannot listen there",
                           'set host = "0.0.0.0" in the configuration')
        return problem("port", f"cannot listen on {host}:{port}: {error.strerror}", "choose another port in the configuration")
    return ok("port", f"{port} is free on {host or 'every address'}")


# --- The report ----------------------------------------------------------------------------

def _safely(name: str, check: Callable[[], Check | list[Check]]) -> list[Check]:
    """A check's lines; a check that breaks is itself a problem, not the end of the report."""
    try:
        found = check()
    except Exception as error:
        return [problem(name, f"the check itself failed: {type(error).__name__}: {error}",
                        "report this with the output of senet doctor")]
    return found if isinstance(found, list) else [found]


def report(checks: Iterable[Check], stream: TextIO) -> list[Check]:
    """Print each check as it comes; the checks printed."""
    done = []
    for check in checks:
        try:
            stream.write(check.format())
        except UnicodeEncodeError:  # a terminal without UTF-8 cannot show the QR code's blocks
            stream.write(check.format(detail=False) + f"{'':<7} (the QR code needs a UTF-8 terminal)\n")
        stream.flush()
        done.append(check)
    return done


def summary(checks: list[Check]) -> str:
    """The report's last line.

    >>> summary([ok("a", "fine"), note("b", "hm")])
    'all is well (1 note)'
    """
    problems = sum(check.status is Status.PROBLEM for check in checks)
    notes = sum(check.status is Status.NOTE for check in checks)
    said = f" ({notes} note{'s' * (notes != 1)})" if notes else ""
    if not problems:
        return f"all is well{said}"
    return f"{problems} problem{'s' * (problems != 1)} to fix{said}: fix {'them' if problems > 1 else 'it'}, then run senet doctor again"


def run_doctor(config: Config, camera_opener: CameraOpener, pin_factory: Any, out_dir: Path, stream: TextIO,
               config_check: Check | None = None) -> int:
    """Run every check on ``config`` (``config_check``: the line saying where it came from)
    and print the report on ``stream``; 0 when there is no problem, 1 otherwise."""

    def checks() -> Iterable[Check]:
        yield from check_packages_first()
        if config_check is not None:
            yield config_check
        yield check_admin_pin(config)
        yield from _safely("camera", lambda: check_camera(config.camera, config.resolution, camera_opener, out_dir))
        yield from _safely("pins", lambda: check_pins(config.wiring, pin_factory))
        yield from _safely("disk", lambda: check_disk(config.store))
        yield from _safely("clock", check_clock)
        yield from _safely("network", lambda: check_network(config))
        yield from _safely("port", lambda: check_port(config.host, config.port))

    done = report(checks(), stream)
    stream.write(summary(done) + "\n")
    return 1 if any(check.status is Status.PROBLEM for check in done) else 0


def doctor_command(config_path: Path | None, camera: str | None, out_dir: Path, stream: TextIO,
                   system_config: Path) -> int:
    """``senet doctor``: the configuration (``--config``, else ``system_config`` if it exists,
    else the defaults) with ``--camera`` on top, checked on this machine's camera and pins.
    2 for a configuration that cannot be used (or a --camera that names no camera)."""
    if camera is not None and camera != "auto":
        try:
            parse_camera(camera)
        except ValueError as error:
            sys.stderr.write(f"senet doctor: --camera: {error}\n")
            return 2
    try:
        config, where = read_config(config_path, system_config)
    except ConfigError as error:
        done = report([*check_packages_first(), config_problem(error)], stream)
        stream.write(summary(done) + "; the other checks need a configuration that loads\n")
        return 2
    if camera is not None:
        config = replace(config, camera=camera)
    return run_doctor(config, open_camera, pin_factory(), out_dir, stream, where)


def check_packages_first() -> list[Check]:
    """The checks that need no configuration: Python and the packages."""
    return [*_safely("python", check_python), *_safely("packages", lambda: check_packages(*package_versions()))]
