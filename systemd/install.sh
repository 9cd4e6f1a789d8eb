#!/usr/bin/env bash
# Installs Senet Companion as the systemd service senet-companion on a Raspberry Pi 4/5 with
# Raspberry Pi OS Bookworm (64-bit), from a checkout of the repository:
#
#   sudo systemd/install.sh              install, or bring an installation up to date
#   systemd/install.sh --dry-run         print every step it would take, change nothing (any user)
#   sudo systemd/install.sh --uninstall  remove it; the matches and the configuration stay
#
# Running it again changes only what is not right yet; it never overwrites the configuration.
# What it makes: the program in /opt/senet-companion (a virtualenv that sees apt's picamera2),
# the user senet (groups video and gpio), /etc/senet/companion.toml (keys: docs/configuration.md),
# the unit /etc/systemd/system/senet-companion.service, enabled and started.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi  # run with sh: bash it is
set -euo pipefail
umask 022  # the service's user must read the program (the configuration gets its own mode)

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/opt/senet-companion
VENV=$PREFIX/.venv
STAMP=$VENV/.senet-installed   # written after a pip install that finished
CONFIG_DIR=/etc/senet
CONFIG=$CONFIG_DIR/companion.toml
STATE=/var/lib/senet
SERVICE=senet-companion
UNIT=/etc/systemd/system/$SERVICE.service
ACCOUNT=senet
ACCOUNT_GROUPS=(video gpio)
APT_PACKAGES=(python3 python3-venv python3-pip python3-dev build-essential ca-certificates rsync)
PI_PACKAGES=(python3-picamera2 python3-lgpio)
# What each Pi-only package is for: said when it is skipped.
declare -A PI_PURPOSE=(
    [python3-picamera2]="the camera module will not work, a USB camera will"
    [python3-lgpio]="the LEDs, buzzer and buttons (GPIO) will not work"
)
COPY_EXCLUDES=(.git .venv venv __pycache__ '*.pyc' .pytest_cache .ruff_cache .hypothesis .mypy_cache
               test-artifacts '*.egg-info' /build /dist /out)

DRY_RUN=0
CHANGED=0      # set when a step changed something
NOT_STARTED=0  # set when the service did not start
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1

usage() {
    cat <<EOF
Usage: sudo $0 [--dry-run] [--uninstall]

Installs Senet Companion as the systemd service $SERVICE (Raspberry Pi OS Bookworm):
  1. apt packages: ${APT_PACKAGES[*]},
     and on Raspberry Pi OS ${PI_PACKAGES[*]} (skipped where apt has none)
  2. the program in $PREFIX with a virtualenv (--system-site-packages, numpy<2)
  3. the user $ACCOUNT (no login; groups ${ACCOUNT_GROUPS[*]}), its state folder $STATE
  4. the configuration $CONFIG with a fresh operator PIN (only when there is none yet)
  5. the unit $UNIT, enabled and (re)started
  6. the address phones open, with its QR code
Running it again changes only what is not right yet.

  --dry-run    print every step and command it would run; change nothing (root not needed)
  --uninstall  stop and remove the service, $PREFIX and the user $ACCOUNT;
               keep $STATE (the matches) and $CONFIG_DIR (the configuration)
  -h, --help   this text
EOF
}

# --- output and running commands -----------------------------------------------------------

step() { printf '\n==> %s\n' "$*"; }
say() { printf '    %s\n' "$*"; }
warn() { printf '    WARNING: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

# A command as one types it: the words that need it in quotes.
shown() {
    local word words=()
    for word; do
        if [[ $word =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then words+=("$word"); else words+=("'$word'"); fi
    done
    echo "${words[*]}"
}

# Runs a command that changes the system (prints it first); with --dry-run only prints it.
run() {
    CHANGED=1
    if ((DRY_RUN)); then
        printf '    would run: %s\n' "$(shown "$@")"
        return 0
    fi
    printf '    + %s\n' "$(shown "$@")"
    "$@"
}

systemd_running() { [ -d /run/systemd/system ]; }

# shellcheck disable=SC2016  # ${Status} is dpkg-query's, not the shell's
installed() { have dpkg-query && [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

# True when apt's sources offer the package (with the package lists as they are).
available() {
    local candidate
    candidate=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

pi_arch() {
    local arch
    arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
    case $arch in arm64 | armhf | aarch64 | armv7l | armv6l) return 0 ;; *) return 1 ;; esac
}

# --- the steps ---------------------------------------------------------------------------

apt_packages() {
    step "1/6 apt packages"
    if ! have apt-get; then
        ((DRY_RUN)) || die "apt-get not found: this script is for Raspberry Pi OS (Debian) only"
        say "apt-get not found here (not Debian?); on the Pi it would run:"
        run apt-get update
        run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}" "${PI_PACKAGES[@]}"
        return
    fi
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        installed "$package" || missing+=("$package")
    done
    # Fresh package lists when something must be installed, or when there are none at all.
    if ((${#missing[@]})) || ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
        run apt-get update
    fi
    for package in "${PI_PACKAGES[@]}"; do
        if installed "$package"; then
            continue
        elif available "$package"; then
            missing+=("$package")
        else
            say "$package: not in this system's apt sources (not Raspberry Pi OS?); skipped: ${PI_PURPOSE[$package]}"
        fi
    done
    if ((${#missing[@]})); then
        run apt-get install -y --no-install-recommends "${missing[@]}"
    else
        say "already there: ${APT_PACKAGES[*]}"
    fi
}

program() {
    step "2/6 the program in $PREFIX (virtualenv $VENV)"
    local pattern changes reinstall=0
    local copy=(rsync --recursive --links --perms --times --omit-dir-times --checksum --delete --itemize-changes)
    for pattern in "${COPY_EXCLUDES[@]}"; do copy+=("--exclude=$pattern"); done
    if ((DRY_RUN)); then
        # What a real run would copy: rsync's own dry run (read only), when it can tell.
        changes="$PREFIX is new"
        if have rsync && [ -d "$PREFIX" ]; then
            changes=$("${copy[@]}" --dry-run "$SOURCE/" "$PREFIX/" 2>/dev/null) || changes="unknown"
        fi
        if [ -n "$changes" ]; then
            run mkdir -p "$PREFIX"
            run "${copy[@]}" "$SOURCE/" "$PREFIX/"
            reinstall=1
        else
            say "already there: $PREFIX has the same files as $SOURCE"
        fi
    else
        mkdir -p "$PREFIX"
        printf '    + %s\n' "$(shown "${copy[@]}" "$SOURCE/" "$PREFIX/")"
        changes=$("${copy[@]}" "$SOURCE/" "$PREFIX/")
        if [ -n "$changes" ]; then
            say "copied: $(printf '%s\n' "$changes" | wc -l) new, changed or deleted file(s) and folder(s)"
            CHANGED=1
            reinstall=1
        else
            say "already there: $PREFIX has the same files as $SOURCE"
        fi
    fi

    if [ ! -x "$VENV/bin/python" ]; then
        # --system-site-packages: apt's python3-picamera2 (built against apt's numpy 1.x) is seen.
        run python3 -m venv --system-site-packages "$VENV"
        reinstall=1
    elif ! grep -q '^include-system-site-packages = true' "$VENV/pyvenv.cfg"; then
        warn "$VENV was made without --system-site-packages: making it again"
        run rm -rf "$VENV"
        run python3 -m venv --system-site-packages "$VENV"
        reinstall=1
    else
        say "already there: the virtualenv (with the system's site-packages)"
    fi

    [ -f "$STAMP" ] && [ -x "$VENV/bin/senet" ] || reinstall=1
    local target=$PREFIX
    if pi_arch; then target="${PREFIX}[pi]"; fi
    if ((reinstall)); then
        # RPi.GPIO and rpi-lgpio (the [pi] extra) cannot be installed side by side in the virtualenv
        # (apt's RPi.GPIO outside it is shadowed by rpi-lgpio).
        if pi_arch && compgen -G "$VENV/lib/python3*/site-packages/RPi.GPIO-*.dist-info" >/dev/null; then
            run "$VENV/bin/python" -m pip uninstall -y RPi.GPIO
        fi
        ((DRY_RUN)) || rm -f "$STAMP"
        say "pip install $target (a few minutes the first time: numpy and OpenCV)"
        # numpy<2 again on the command line: apt's picamera2 is built against numpy 1.x.
        run "$VENV/bin/python" -m pip install --quiet "$target" "numpy<2"
        ((DRY_RUN)) || touch "$STAMP"
    else
        say "already there: $target is installed in the virtualenv"
    fi
    if ! ((DRY_RUN)); then
        local numpy
        numpy=$("$VENV/bin/python" -c 'import numpy; print(numpy.__version__)')
        [ "${numpy%%.*}" -lt 2 ] || die "numpy $numpy in $VENV: picamera2 needs numpy 1.x; run: $VENV/bin/pip install 'numpy<2'"
        say "numpy $numpy (1.x, as apt's picamera2 needs)"
    fi
}

account() {
    step "3/6 the user $ACCOUNT (groups ${ACCOUNT_GROUPS[*]}) and $STATE"
    local group missing=()
    for group in "${ACCOUNT_GROUPS[@]}"; do
        if ! getent group "$group" >/dev/null; then
            say "the group $group does not exist here (not a Raspberry Pi?): creating it"
            run groupadd --system "$group"
        fi
    done
    if ! getent passwd "$ACCOUNT" >/dev/null; then
        local own_group=(--user-group)
        getent group "$ACCOUNT" >/dev/null && own_group=(--gid "$ACCOUNT")
        run useradd --system "${own_group[@]}" --home-dir "$STATE" --no-create-home \
            --shell /usr/sbin/nologin --comment "Senet Companion" \
            --groups "$(IFS=,; echo "${ACCOUNT_GROUPS[*]}")" "$ACCOUNT"
    else
        for group in "${ACCOUNT_GROUPS[@]}"; do
            id -nG "$ACCOUNT" | tr ' ' '\n' | grep -qx "$group" || missing+=("$group")
        done
        if ((${#missing[@]})); then
            run usermod --append --groups "$(IFS=,; echo "${missing[*]}")" "$ACCOUNT"
        else
            say "already there: the user $ACCOUNT in ${ACCOUNT_GROUPS[*]}"
        fi
    fi
    # systemd's StateDirectory= makes it too, but the configuration's store is there from the start.
    if [ "$(stat -c '%U:%G %a' "$STATE" 2>/dev/null)" = "$ACCOUNT:$ACCOUNT 750" ]; then
        say "already there: $STATE"
    else
        run install -d -o "$ACCOUNT" -g "$ACCOUNT" -m 0750 "$STATE"
    fi
}

new_pin() {
    # Six digits, never starting with 0 (easier to read out); from the kernel's random source.
    local number
    number=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    echo $((100000 + number % 900000))
}

write_configuration() {
    local pin=$1 target=$2
    cat >"$target" <<EOF
# Senet Companion's configuration, written by systemd/install.sh on $(date +%F).
# Every key and what it does: docs/configuration.md (also in $PREFIX/docs/configuration.md).
# After a change:  sudo $VENV/bin/senet config check $CONFIG
#                  sudo systemctl restart $SERVICE
variant = "kendall"
camera = "auto"              # the camera module, else the first USB camera
port = 8080
public_address = ""          # "": phones are shown this Pi's network address; or a name, such as "senet.local"
language = "en"
place = ""                   # written with every match, such as "Room 61"
store = "/var/lib/senet/matches.db"
settings = "/var/lib/senet/settings.json"
admin_pin = "$pin"          # the operator's PIN: undo, set-position and new game on the page
idle_reset_minutes = 20      # museum mode: an abandoned game starts over
teaching = true
EOF
}

configuration() {
    step "4/6 the configuration $CONFIG"
    if [ -e "$CONFIG" ]; then
        say "already there: $CONFIG is kept as it is (the operator PIN is unchanged)"
        if [ "$(stat -c '%U:%G %a' "$CONFIG")" != "root:$ACCOUNT 640" ]; then
            say "its owner or mode is not root:$ACCOUNT 0640 (the service reads it as $ACCOUNT): fixing that"
            run chown "root:$ACCOUNT" "$CONFIG"
            run chmod 0640 "$CONFIG"
        fi
    elif ((DRY_RUN)); then
        run mkdir -p "$CONFIG_DIR"
        say "would write $CONFIG (mode 0640, root:$ACCOUNT) with a fresh 6-digit operator PIN, store and settings in $STATE"
    else
        local pin temporary
        pin=$(new_pin)
        run mkdir -p "$CONFIG_DIR"
        temporary=$(mktemp "$CONFIG_DIR/.companion.toml.XXXXXX")
        say "+ write $CONFIG"
        write_configuration "$pin" "$temporary"
        chown "root:$ACCOUNT" "$temporary"
        chmod 0640 "$temporary"
        mv "$temporary" "$CONFIG"
        CHANGED=1
        printf '\n    Operator PIN: %s — write it down; it is in %s\n\n' "$pin" "$CONFIG"
    fi
    if ((DRY_RUN)); then
        printf '    would run: %s\n' "$VENV/bin/senet config check $CONFIG"
    else
        printf '    + %s\n' "$VENV/bin/senet config check $CONFIG"
        "$VENV/bin/senet" config check "$CONFIG" | sed 's/^/    /' \
            || die "$CONFIG has a problem (above); fix it and run this again"
    fi
}

unit() {
    step "5/6 the service $SERVICE"
    local unit_changed=0
    if cmp -s "$SOURCE/systemd/$SERVICE.service" "$UNIT"; then
        say "already there: $UNIT"
    else
        run install -m 0644 "$SOURCE/systemd/$SERVICE.service" "$UNIT"
        unit_changed=1
    fi
    if ! have systemctl; then
        ((DRY_RUN)) || { warn "systemctl not found: enable the service by hand (systemctl enable $SERVICE)"; return; }
    fi
    if systemd_running; then
        if ((unit_changed)); then run systemctl daemon-reload; fi
        if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
            say "already enabled: it starts at every boot"
        else
            run systemctl enable "$SERVICE"
        fi
        if ((CHANGED)) || ! systemctl is-active --quiet "$SERVICE"; then
            if run systemctl restart "$SERVICE"; then
                ((DRY_RUN)) || say "started; its log: journalctl -u $SERVICE -f"
            else
                warn "the service did not start; why: journalctl -u $SERVICE -n 50 (then: sudo systemctl restart $SERVICE)"
                NOT_STARTED=1
            fi
        else
            say "already running, and nothing changed: not restarted"
        fi
    else
        # A chroot or a container: enable works offline (a symlink in multi-user.target.wants).
        if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
            say "already enabled: it starts at every boot"
        elif ((DRY_RUN)); then
            run systemctl enable "$SERVICE"
        elif ! run systemctl enable "$SERVICE"; then
            warn "systemctl enable did not work here; on the Pi run: sudo systemctl enable --now $SERVICE"
        fi
        say "systemd is not running here: the service will start at the next boot"
    fi
}

phone_address() {
    step "6/6 the address phones open"
    local show=(
        "$VENV/bin/python" -c '
import sys
from pathlib import Path

import segno

from senet.device.address import phone_url
from senet.device.config import load_config

config = load_config(Path(sys.argv[1]))
url = phone_url(config.public_address if config.host in ("0.0.0.0", "::", "") else config.host, config.port)
print(f"    Phones open {url} (the Wi-Fi must be the same), or scan:")
segno.make(url).terminal(compact=True)
' "$CONFIG")
    if ((DRY_RUN)); then
        printf '    would run: %s -c "from senet.device.address import phone_url; ..." %s\n' "$VENV/bin/python" "$CONFIG"
    else
        "${show[@]}" || warn "could not show the address: $VENV/bin/senet config check $CONFIG says it"
    fi
}

# --- uninstall ---------------------------------------------------------------------------

uninstall() {
    step "1/4 the service $SERVICE"
    if have systemctl && { [ -e "$UNIT" ] || systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; }; then
        if systemd_running; then
            run systemctl disable --now "$SERVICE" || warn "could not stop or disable $SERVICE (above)"
        else
            run systemctl disable "$SERVICE" || warn "could not disable $SERVICE (above)"
        fi
    fi
    if [ -e "$UNIT" ]; then
        run rm -f "$UNIT"
        if systemd_running; then run systemctl daemon-reload; fi
    else
        say "already gone: $UNIT"
    fi
    step "2/4 the program $PREFIX"
    if [ -e "$PREFIX" ]; then run rm -rf "$PREFIX"; else say "already gone: $PREFIX"; fi
    step "3/4 the user $ACCOUNT"
    if getent passwd "$ACCOUNT" >/dev/null; then
        run userdel "$ACCOUNT"
    else
        say "already gone: the user $ACCOUNT"
    fi
    say "the groups ${ACCOUNT_GROUPS[*]} stay (other programs use them)"
    step "4/4 what stays"
    say "kept $STATE (the match store and the page's settings) and $CONFIG_DIR (the configuration, with the operator PIN):"
    say "installing again uses them as they are. To remove them too, by hand:"
    say "  sudo rm -rf $STATE $CONFIG_DIR"
}

# --- main --------------------------------------------------------------------------------

main() {
    local mode=install arguments=("$@")
    while (($#)); do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --uninstall) mode=uninstall ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    if ((DRY_RUN)); then
        echo "Dry run: every step and the commands it would run; nothing is changed."
    elif [ "$(id -u)" != 0 ]; then
        die "run it as root: sudo $0 ${arguments[*]} (or try --dry-run)"
    fi
    if [ "$mode" = uninstall ]; then
        uninstall
        return
    fi
    echo "Installing Senet Companion from $SOURCE"
    apt_packages
    program
    account
    configuration
    unit
    phone_address
    echo
    if ((DRY_RUN)); then
        echo "Dry run: nothing was changed."
    elif ((NOT_STARTED)); then
        echo "Installed, but the service $SERVICE did not start (above)."
        exit 1
    elif ((CHANGED)); then
        echo "Done: Senet Companion is installed as the service $SERVICE."
    else
        echo "Nothing needed doing: everything was already there and right."
    fi
}

main "$@"
