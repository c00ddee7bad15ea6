#!/usr/bin/env bash
# Make a Raspberry Pi a Longhall appliance: Raspberry Pi OS Bookworm (Lite or Desktop), from a
# clone of the repository. Run it again after `git pull` to update.
#
#   sudo systemd/install.sh [options]
#
#   --hotspot SSID PASSWORD  run the Pi's own Wi-Fi (NetworkManager, offline): phones join it
#   --country CC             the Wi-Fi country (e.g. DE, GB, US): the Pi's radio needs one
#   --port PORT              the server's port (default 8000)
#   --gpio-config FILE       a pin map instead of hardware/pins.toml
#   --no-kiosk               the server only: no table display on this Pi's screen
#   --prefix DIR             where Longhall is installed (default /opt/longhall)
#   --dry-run                print every step, every command and every file; change nothing
#   --render DIR             only write the filled-in unit files into DIR (for tests)
#
# What it does: Debian packages; a gpio group and two system users (longhall: the server, in
# gpio; longhall-kiosk: the screen); a copy of the clone in the prefix with a venv that sees
# Debian's lgpio (--system-site-packages) and Longhall installed with pip install -e; the
# hotspot when asked; the server's and the kiosk's systemd units; the console boot the kiosk
# needs. See docs/pi-setup.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLONE=$(dirname "$HERE")
PREFIX=/opt/longhall
PORT=8000
KIOSK=1
DRY_RUN=0
RENDER=""
SSID=""
PASSWORD=""
COUNTRY=""
GPIO_CONFIG=""
ETC=/etc/longhall
UNITS=/etc/systemd/system
HOTSPOT_FILE=$ETC/hotspot
HOTSPOT_NAME=longhall-hotspot
HOTSPOT_ADDRESS=10.42.0.1  # NetworkManager's shared mode; pinned below so it never moves
WIFI=wlan0

die() { echo "install.sh: $*" >&2; exit 2; }
usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --hotspot)
            [ $# -ge 3 ] || die "--hotspot needs a name and a password"
            SSID=$2 PASSWORD=$3
            shift 3
            ;;
        --country) [ $# -ge 2 ] || die "--country needs a code"; COUNTRY=$2; shift 2 ;;
        --port) [ $# -ge 2 ] || die "--port needs a number"; PORT=$2; shift 2 ;;
        --gpio-config) [ $# -ge 2 ] || die "--gpio-config needs a file"; GPIO_CONFIG=$2; shift 2 ;;
        --no-kiosk) KIOSK=0; shift ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        --render) [ $# -ge 2 ] || die "--render needs a directory"; RENDER=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

# -- checks: refuse what would make a broken unit or hotspot ------------------------------------

[[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || die "bad port: $PORT"
[[ $PREFIX == /* && $PREFIX != *[[:space:]%\\]* ]] \
    || die "the prefix must be an absolute path without spaces, % or \\: $PREFIX"
if [ -n "$SSID" ]; then
    [ "${#SSID}" -le 32 ] || die "a Wi-Fi name has at most 32 characters"
    [ "${#PASSWORD}" -ge 8 ] && [ "${#PASSWORD}" -le 63 ] \
        || die "a Wi-Fi password (WPA2) has 8 to 63 characters"
    [[ $SSID != *$'\n'* && $PASSWORD != *$'\n'* ]] || die "no line breaks in the Wi-Fi name or password"
fi
if [ -n "$COUNTRY" ]; then
    [[ $COUNTRY =~ ^[A-Za-z]{2}$ ]] || die "a Wi-Fi country is two letters, e.g. DE"
    COUNTRY=${COUNTRY^^}
fi
if [ -n "$GPIO_CONFIG" ]; then
    [ -f "$GPIO_CONFIG" ] || die "no such pin map: $GPIO_CONFIG"
    GPIO_CONFIG=$(cd "$(dirname "$GPIO_CONFIG")" && pwd)/$(basename "$GPIO_CONFIG")
fi

# The server's options beyond the port: the pin map, the hotspot's file and the address phones
# use (with the hotspot on, phones are on its network, where the Pi is always 10.42.0.1).
OPTIONS=()
[ -n "$GPIO_CONFIG" ] && OPTIONS+=(--gpio-config "$ETC/pins.toml")
if [ -n "$SSID" ]; then
    OPTIONS+=(--hotspot-file "$HOTSPOT_FILE" --public-url "http://$HOTSPOT_ADDRESS:$PORT")
fi

# -- doing, or only saying ------------------------------------------------------------------------

say() { printf '\n==> %s\n' "$*"; }

show() {  # a command as it would be typed
    local out="+" word
    for word in "$@"; do out+=" $(printf '%q' "$word")"; done
    printf '%s\n' "$out"
}

run() {  # run a command (or only print it)
    show "$@"
    [ "$DRY_RUN" = 1 ] || "$@"
}

run_if() {  # run_if "CHECK" COMMAND...: run COMMAND when the shell test CHECK succeeds
    local check=$1
    shift
    if [ "$DRY_RUN" = 1 ]; then
        show "$@"
        printf '    (only when: %s)\n' "$check"
    elif eval "$check" >/dev/null 2>&1; then
        show "$@"
        "$@"
    fi
}

run_unless() {  # run_unless "CHECK" COMMAND...: run COMMAND unless CHECK succeeds (done before)
    local check=$1
    shift
    if [ "$DRY_RUN" = 1 ]; then
        show "$@"
        printf '    (unless: %s)\n' "$check"
    elif ! eval "$check" >/dev/null 2>&1; then
        show "$@"
        "$@"
    else
        printf '= already done: %s\n' "$check"
    fi
}

render() {  # render TEMPLATE: the template with every @NAME@ filled in
    local text
    text=$(<"$1")
    text=${text//@PREFIX@/$PREFIX}
    text=${text//@PORT@/$PORT}
    text=${text//@OPTIONS@/${OPTIONS[*]}}
    printf '%s\n' "$text"
}

put() {  # put MODE OWNER DEST < CONTENT: write a file whole (or only print it)
    local mode=$1 owner=$2 dest=$3 content
    content=$(cat)
    printf '+ write %s (mode %s, owner %s):\n' "$dest" "$mode" "$owner"
    printf '%s\n' "$content" | sed 's/^/    | /'
    if [ "$DRY_RUN" = 0 ]; then
        local tmp
        tmp=$(mktemp "$dest.XXXXXX")
        printf '%s\n' "$content" >"$tmp"
        chmod "$mode" "$tmp"
        chown "$owner" "$tmp"
        mv -f "$tmp" "$dest"
    fi
}

if [ -n "$RENDER" ]; then
    mkdir -p "$RENDER"
    render "$HERE/longhall.service" >"$RENDER/longhall.service"
    render "$HERE/longhall-kiosk.service" >"$RENDER/longhall-kiosk.service"
    cp "$HERE/longhall-kiosk.pam" "$RENDER/longhall-kiosk.pam"
    exit 0
fi

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root (sudo $0 ...), or with --dry-run to see what it would do"
fi
if [ "$DRY_RUN" = 1 ]; then
    echo "Dry run: every step is printed, nothing is changed."
fi
if ! grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
    echo "Note: this is not Debian/Raspberry Pi OS Bookworm; the steps are written for Bookworm."
fi
if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
    echo "Note: this is not a Raspberry Pi: the server will run without buttons and lights."
fi

# -- 1. Debian packages ---------------------------------------------------------------------------

PACKAGES=(python3 python3-venv python3-pip python3-lgpio rsync sqlite3 network-manager)
if [ -n "$SSID" ]; then
    # NetworkManager's shared mode hands out addresses with dnsmasq; the access point is
    # wpa_supplicant's work (both only recommended by network-manager)
    PACKAGES+=(dnsmasq-base wpasupplicant rfkill)
fi
if [ "$KIOSK" = 1 ]; then
    # Raspberry Pi OS calls its Chromium chromium-browser; Debian calls it chromium
    if apt-cache policy chromium-browser 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        PACKAGES+=(chromium-browser)
    else
        PACKAGES+=(chromium)
    fi
    PACKAGES+=(cage fonts-dejavu-core)
fi
say "Debian packages"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"

# -- 2. users -------------------------------------------------------------------------------------

say "The gpio group and the service users"
run_unless "getent group gpio" groupadd --system gpio
run_unless "id -u longhall" useradd --system --user-group --home-dir /var/lib/longhall \
    --no-create-home --shell /usr/sbin/nologin longhall
run usermod --append --groups gpio longhall
if [ "$KIOSK" = 1 ]; then
    run_unless "id -u longhall-kiosk" useradd --system --user-group \
        --home-dir /var/lib/longhall-kiosk --no-create-home --shell /usr/sbin/nologin longhall-kiosk
    # the screen (video, render) and the keyboard or touch screen (input)
    run usermod --append --groups video,render,input longhall-kiosk
fi

# -- 3. Longhall itself ---------------------------------------------------------------------------

say "Longhall in $PREFIX, with its venv"
if [ "$CLONE" != "$PREFIX" ]; then
    # a copy owned by root: the service reads it and cannot change it, and the clone may stay
    # in a home directory the service has no access to
    run mkdir -p "$PREFIX"
    run rsync -a --delete --chown=root:root --chmod=u+rwX,go+rX,go-w \
        --exclude=.git --exclude=.venv --exclude='*.egg-info' --exclude=__pycache__ \
        --exclude=.pytest_cache --exclude=.mypy_cache --exclude=.ruff_cache \
        "$CLONE/" "$PREFIX/"
fi
# --system-site-packages: Debian's python3-lgpio is what gpiozero drives the pins with
run_unless "test -x $PREFIX/.venv/bin/python" python3 -m venv --system-site-packages "$PREFIX/.venv"
run "$PREFIX/.venv/bin/python" -m pip install --quiet -e "$PREFIX"

# -- 4. configuration -----------------------------------------------------------------------------

say "Configuration in $ETC"
run install -d -m 0755 "$ETC"
if [ -n "$GPIO_CONFIG" ]; then
    run install -m 0644 "$GPIO_CONFIG" "$ETC/pins.toml"
fi

# -- 5. the hotspot -------------------------------------------------------------------------------

if [ -n "$SSID" ]; then
    say "The Wi-Fi hotspot \"$SSID\" (NetworkManager, shared mode at $HOTSPOT_ADDRESS)"
    if [ -n "$COUNTRY" ]; then
        if command -v raspi-config >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
            run raspi-config nonint do_wifi_country "$COUNTRY"
        else
            run iw reg set "$COUNTRY"
        fi
    fi
    run rfkill unblock wifi
    run nmcli radio wifi on
    run_if "nmcli -t -f NAME connection show | grep -qx $HOTSPOT_NAME" \
        nmcli connection delete "$HOTSPOT_NAME"
    # wpa-psk with rsn/ccmp and no PMF: what phones of every age join without trouble
    run nmcli connection add type wifi ifname "$WIFI" con-name "$HOTSPOT_NAME" ssid "$SSID" \
        autoconnect yes connection.autoconnect-priority 100 \
        802-11-wireless.mode ap 802-11-wireless.band bg \
        ipv4.method shared ipv4.addresses "$HOTSPOT_ADDRESS/24" ipv6.method disabled \
        wifi-sec.key-mgmt wpa-psk wifi-sec.proto rsn wifi-sec.pairwise ccmp \
        wifi-sec.group ccmp wifi-sec.pmf disable wifi-sec.psk "$PASSWORD"
    # the server reads the name and password to show the Wi-Fi QR code on the table display
    printf 'ssid=%s\npassword=%s\n' "$SSID" "$PASSWORD" | put 0640 root:longhall "$HOTSPOT_FILE"
else
    say "No hotspot (phones join the network the Pi is on)"
    run_if "nmcli -t -f NAME connection show | grep -qx $HOTSPOT_NAME" \
        nmcli connection delete "$HOTSPOT_NAME"
    run_if "[ -e $HOTSPOT_FILE ]" rm -f "$HOTSPOT_FILE"
fi

# -- 6. the units ---------------------------------------------------------------------------------

say "The server's systemd unit"
render "$HERE/longhall.service" | put 0644 root:root "$UNITS/longhall.service"

if [ "$KIOSK" = 1 ]; then
    say "The kiosk: Chromium in cage on tty1"
    render "$HERE/longhall-kiosk.service" | put 0644 root:root "$UNITS/longhall-kiosk.service"
    put 0644 root:root /etc/pam.d/longhall-kiosk <"$HERE/longhall-kiosk.pam"
    # the Desktop's own session would take the screen: boot to the console, the kiosk takes tty1
    run_if "[ \"\$(systemctl get-default)\" = graphical.target ]" \
        systemctl set-default multi-user.target
    # no console blanking before the kiosk's first frame (or while it restarts)
    CMDLINE=/boot/firmware/cmdline.txt
    if [ "$DRY_RUN" = 1 ] || [ -f "$CMDLINE" ]; then
        run_unless "grep -q consoleblank=0 $CMDLINE" sed -i '1 s/$/ consoleblank=0/' "$CMDLINE"
    fi
else
    run_if "[ -e $UNITS/longhall-kiosk.service ]" systemctl disable --now longhall-kiosk.service
fi

say "Starting"
run systemctl daemon-reload
run systemctl enable longhall.service
run systemctl restart longhall.service
if [ "$KIOSK" = 1 ]; then
    run systemctl enable longhall-kiosk.service
fi

say "Done"
cat <<EOF
The server runs as longhall.service; its game store is /var/lib/longhall/longhall.sqlite3.
  status:   systemctl status longhall longhall-kiosk
  logs:     journalctl -u longhall -u longhall-kiosk -b
  health:   curl http://127.0.0.1:$PORT/healthz
EOF
if [ -n "$SSID" ]; then
    echo "Phones join the Wi-Fi \"$SSID\", then http://$HOTSPOT_ADDRESS:$PORT/ (the QR codes show both)."
fi
if [ "$KIOSK" = 1 ] || [ -n "$SSID" ]; then
    echo "Reboot now (sudo reboot): the Pi starts in the table display${SSID:+ with its own Wi-Fi}."
fi
