#!/usr/bin/env bash
# Make a Raspberry Pi a Longhall appliance: Raspberry Pi OS Bookworm or Trixie (Lite or Desktop),
# or plain Debian, from a clone of the repository.
#
#   sudo systemd/install.sh [options]     install, or change options (the others stay as saved)
#   sudo systemd/install.sh --update      after `git pull`: the same install, with the saved options
#
#   --hotspot SSID PASSWORD  run the Pi's own Wi-Fi (NetworkManager, offline): phones join it
#   --no-hotspot             remove the hotspot (nothing else ever removes it)
#   --country CC             the Wi-Fi country (e.g. DE, GB, US): the Pi's radio needs one
#   --port PORT              the server's port (default 8000)
#   --gpio-config FILE       a pin map instead of hardware/pins.toml
#   --power-button           a button on GPIO3 (header pin 5) and ground powers the Pi off and on
#                            (dtoverlay=gpio-shutdown); --no-power-button takes it away
#   --resolution WxH         the kiosk's screen mode, e.g. 1920x1080 (a 4K TV makes a Pi 4 draw
#                            at 4K); "auto": the screen's own choice (the default)
#   --rotate DEGREES         the kiosk's screen turned by 0, 90, 180 or 270 degrees
#   --name NAME              the Pi's host name, so the table answers at NAME.local (avahi) and,
#                            on the hotspot, at NAME and NAME.lan (default longhall)
#   --keep-hostname          leave the host name as it is (the Pi answers at its own name.local)
#   --no-kiosk | --kiosk     the server only (no table display on this Pi's screen), or both
#   --prefix DIR             where Longhall is installed (default /opt/longhall)
#   --hardware-watchdog S    reboot when the system hangs for S seconds (1-15; off: none); the
#                            default is 15 on a Raspberry Pi, off elsewhere
#   --update                 use the saved options (refused when there are none)
#   --dry-run                print every step, every command and every file; change nothing
#   --render DIR             only write the filled-in unit files into DIR (for tests)
#
# The options are saved in /etc/longhall/install.conf: a later run (or --update) keeps them unless
# told otherwise. A run with nothing new to fetch needs no network: Debian packages are installed
# only when missing, and Longhall is re-installed into its venv only when pyproject.toml changed.
# What it does: Debian packages; a gpio group and two system users (longhall: the server, in
# gpio; longhall-kiosk: the screen); a copy of the clone in the prefix with a venv that sees
# Debian's lgpio (--system-site-packages), Longhall installed into it without a build step, its
# code byte-compiled (the service cannot write __pycache__); the hotspot when asked; the server's
# and the kiosk's systemd units; the console boot the kiosk needs. See docs/pi-setup.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLONE=$(dirname "$HERE")
PREFIX=/opt/longhall
PORT=8000
KIOSK=1
DRY_RUN=0
RENDER=""
UPDATE=0
SSID=""
PASSWORD=""
HOTSPOT=0          # 1: run the hotspot (its name and password are in $HOTSPOT_FILE once saved)
NEW_HOTSPOT=0      # 1: a name and password were given now: (re)configure the connection
COUNTRY=""
GPIO_CONFIG=""     # a pin map given now, to copy to $ETC/pins.toml
OWN_PINS=0         # 1: the server uses $ETC/pins.toml
POWER_BUTTON=0     # 1: dtoverlay=gpio-shutdown (GPIO3) in config.txt
RESOLUTION=auto    # the kiosk's screen mode (WxH), or auto
NAME=longhall      # the host name (NAME.local); empty: leave the host name alone
ROTATE=0           # the kiosk's rotation in degrees
WATCHDOG=auto      # the hardware watchdog's seconds, off, or auto (15 on a Raspberry Pi)
# where the options and the server's files live; LONGHALL_ETC only for the tests' dry runs
ETC=${LONGHALL_ETC:-/etc/longhall}
SAVED=$ETC/install.conf
UNITS=/etc/systemd/system
HOTSPOT_FILE=$ETC/hotspot
HOTSPOT_NAME=longhall-hotspot
HOTSPOT_ADDRESS=10.42.0.1  # NetworkManager's shared mode; pinned below so it never moves
WIFI=wlan0

die() { echo "install.sh: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

# The saved options first: whatever the command line says comes on top of them.
saved() {  # saved KEY: the value saved for KEY ("" when none)
    [ -f "$SAVED" ] || return 0
    sed -n "s/^$1=//p" "$SAVED" | tail -n 1
}
if [ -f "$SAVED" ]; then
    PORT=$(saved port)
    KIOSK=$(saved kiosk)
    PREFIX=$(saved prefix)
    COUNTRY=$(saved country)
    OWN_PINS=$(saved own_pins)
    HOTSPOT=$(saved hotspot)
    WATCHDOG=$(saved hardware_watchdog)
    POWER_BUTTON=$(saved power_button)
    RESOLUTION=$(saved resolution)
    grep -q '^name=' "$SAVED" && NAME=$(saved name)
    ROTATE=$(saved rotate)
    [ -n "$RESOLUTION" ] || RESOLUTION=auto
    [ -n "$ROTATE" ] || ROTATE=0
    [ -n "$POWER_BUTTON" ] || POWER_BUTTON=0
    [ -n "$WATCHDOG" ] || WATCHDOG=auto
    [ -n "$PORT" ] || PORT=8000
    [ -n "$KIOSK" ] || KIOSK=1
    [ -n "$PREFIX" ] || PREFIX=/opt/longhall
    [ -n "$OWN_PINS" ] || OWN_PINS=0
    [ -n "$HOTSPOT" ] || HOTSPOT=0
fi

while [ $# -gt 0 ]; do
    case "$1" in
        --hotspot)
            [ $# -ge 3 ] || die "--hotspot needs a name and a password"
            SSID=$2 PASSWORD=$3 HOTSPOT=1 NEW_HOTSPOT=1
            shift 3
            ;;
        --no-hotspot) HOTSPOT=0 NEW_HOTSPOT=0; shift ;;
        --country) [ $# -ge 2 ] || die "--country needs a code"; COUNTRY=$2; shift 2 ;;
        --port) [ $# -ge 2 ] || die "--port needs a number"; PORT=$2; shift 2 ;;
        --gpio-config)
            [ $# -ge 2 ] || die "--gpio-config needs a file"
            GPIO_CONFIG=$2 OWN_PINS=1
            shift 2
            ;;
        --hardware-watchdog)
            [ $# -ge 2 ] || die "--hardware-watchdog needs seconds or off"
            WATCHDOG=$2
            shift 2
            ;;
        --power-button) POWER_BUTTON=1; shift ;;
        --name) [ $# -ge 2 ] || die "--name needs a host name"; NAME=$2; shift 2 ;;
        --keep-hostname) NAME=""; shift ;;
        --resolution) [ $# -ge 2 ] || die "--resolution needs WxH or auto"; RESOLUTION=$2; shift 2 ;;
        --rotate) [ $# -ge 2 ] || die "--rotate needs degrees"; ROTATE=$2; shift 2 ;;
        --no-power-button) POWER_BUTTON=0; shift ;;
        --no-kiosk) KIOSK=0; shift ;;
        --kiosk) KIOSK=1; shift ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --update) UPDATE=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --render) [ $# -ge 2 ] || die "--render needs a directory"; RENDER=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
if [ "$UPDATE" = 1 ] && [ ! -f "$SAVED" ]; then
    die "no saved options in $SAVED: install once without --update first"
fi
# a hotspot kept from before: its name and password are the ones the server reads
if [ "$HOTSPOT" = 1 ] && [ "$NEW_HOTSPOT" = 0 ]; then
    if [ -f "$HOTSPOT_FILE" ]; then
        SSID=$(sed -n 's/^ssid=//p' "$HOTSPOT_FILE" | head -n 1)
        PASSWORD=$(sed -n 's/^password=//p' "$HOTSPOT_FILE" | head -n 1)
    fi
    [ -n "$SSID" ] || die "the saved hotspot has no name in $HOTSPOT_FILE: give --hotspot again"
fi

# -- checks: refuse what would make a broken unit or hotspot ------------------------------------

[[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || die "bad port: $PORT"
[[ $PREFIX == /* && $PREFIX != *[[:space:]%\\]* ]] \
    || die "the prefix must be an absolute path without spaces, % or \\: $PREFIX"
if [ "$NEW_HOTSPOT" = 1 ]; then
    [ "${#SSID}" -le 32 ] || die "a Wi-Fi name has at most 32 characters"
    [ "${#PASSWORD}" -ge 8 ] && [ "${#PASSWORD}" -le 63 ] \
        || die "a Wi-Fi password (WPA2) has 8 to 63 characters"
    [[ $SSID != *$'\n'* && $PASSWORD != *$'\n'* ]] || die "no line breaks in the Wi-Fi name or password"
fi
[[ $RESOLUTION == auto || $RESOLUTION =~ ^[1-9][0-9]{2,4}x[1-9][0-9]{2,4}(@[0-9]+(\.[0-9]+)?Hz)?$ ]] \
    || die "a resolution is WIDTHxHEIGHT (e.g. 1920x1080, or 1920x1080@60Hz), or auto"
[[ -z $NAME || $NAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]] \
    || die "a host name has lower-case letters, digits and inner hyphens (at most 63): $NAME"
case "$ROTATE" in 0 | 90 | 180 | 270) ;; *) die "the rotation is 0, 90, 180 or 270 degrees" ;; esac
case "$WATCHDOG" in
    auto | off) ;;
    *) [[ $WATCHDOG =~ ^[0-9]+$ ]] && [ "$WATCHDOG" -ge 1 ] && [ "$WATCHDOG" -le 15 ] \
        || die "the hardware watchdog takes 1 to 15 seconds (a Pi's most), or off" ;;
esac
if [ -n "$COUNTRY" ]; then
    [[ $COUNTRY =~ ^[A-Za-z]{2}$ ]] || die "a Wi-Fi country is two letters, e.g. DE"
    COUNTRY=${COUNTRY^^}
fi
if [ -n "$GPIO_CONFIG" ]; then
    [ -f "$GPIO_CONFIG" ] || die "no such pin map: $GPIO_CONFIG"
    GPIO_CONFIG=$(cd "$(dirname "$GPIO_CONFIG")" && pwd)/$(basename "$GPIO_CONFIG")
fi
if [ "$POWER_BUTTON" = 1 ]; then
    # the power button takes GPIO3: the pin map must leave it free (the default map does)
    pins=${GPIO_CONFIG:-$CLONE/hardware/pins.toml}
    [ -z "$GPIO_CONFIG" ] && [ "$OWN_PINS" = 1 ] && [ -f "$ETC/pins.toml" ] && pins=$ETC/pins.toml
    PYTHONPATH=$CLONE/hardware python3 -c 'import sys
from pinmap import load  # hardware/pinmap.py imports nothing else of the project
from pathlib import Path
sys.exit("GPIO3" in load(Path(sys.argv[1])).pins() or "BOARD5" in load(Path(sys.argv[1])).pins())' \
        "$pins" 2>/dev/null \
        || die "the power button needs GPIO3 (header pin 5), which the pin map $pins uses"
fi

# The server's options beyond the port: the pin map, the hotspot's file and the address phones
# use (with the hotspot on, phones are on its network, where the Pi is always 10.42.0.1).
OPTIONS=()
[ "$OWN_PINS" = 1 ] && OPTIONS+=(--gpio-config "$ETC/pins.toml")
if [ "$HOTSPOT" = 1 ]; then
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
    text=${text//@ETC@/$ETC}
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

# What the hotspot's DNS (NetworkManager's dnsmasq) answers: the table's short names, and the
# names phones, tablets and laptops ask to see whether they are online, all at the Pi.
CHECK_HOSTS=(connectivitycheck.gstatic.com connectivitycheck.android.com clients1.google.com
    clients3.google.com www.google.com captive.apple.com www.apple.com www.appleiphonecell.com
    www.msftconnecttest.com www.msftncsi.com detectportal.firefox.com connect.rom.miui.com
    connectivitycheck.platform.hicloud.com connectivitycheck.cbg-app.huawei.com)
hotspot_dns() {
    echo "# Written by Longhall's install.sh: what the hotspot's DNS answers (see docs/pi-setup.md)."
    if [ -n "$NAME" ]; then
        echo "# the table's short names"
        echo "address=/$NAME/$HOTSPOT_ADDRESS"
        echo "address=/$NAME.lan/$HOTSPOT_ADDRESS"
    fi
    echo "# connectivity checks: the table answers them as the internet would (no captive portal)"
    local host
    for host in "${CHECK_HOSTS[@]}"; do echo "address=/$host/$HOTSPOT_ADDRESS"; done
}

port80() {  # the nftables rules: port 80 of the hotspot's address to the server
    cat <<EOF
# Written by Longhall's install.sh: port 80 of the hotspot's address to the server (port $PORT).
table ip longhall
flush table ip longhall
table ip longhall {
    chain prerouting {
        type nat hook prerouting priority dstnat; policy accept;
        ip daddr $HOTSPOT_ADDRESS tcp dport 80 redirect to :$PORT
    }
}
EOF
}

if [ -n "$RENDER" ]; then
    mkdir -p "$RENDER"
    render "$HERE/longhall.service" >"$RENDER/longhall.service"
    render "$HERE/longhall-kiosk.service" >"$RENDER/longhall-kiosk.service"
    cp "$HERE/longhall-kiosk.pam" "$RENDER/longhall-kiosk.pam"
    render "$HERE/longhall-port80.service" >"$RENDER/longhall-port80.service"
    port80 >"$RENDER/port80.nft"
    hotspot_dns >"$RENDER/dnsmasq-longhall.conf"
    exit 0
fi

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root (sudo $0 ...), or with --dry-run to see what it would do"
fi
if [ "$DRY_RUN" = 1 ]; then
    echo "Dry run: every step is printed, nothing is changed."
fi
if ! grep -Eqs 'VERSION_CODENAME=(bookworm|trixie)' /etc/os-release; then
    echo "Note: this is not Debian Bookworm or Trixie; the steps are written for those."
fi
if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
    echo "Note: this is not a Raspberry Pi: the server will run without buttons and lights."
fi

# -- 1. Debian packages ---------------------------------------------------------------------------

candidate() {  # whether apt knows a package (from its local lists: no network)
    apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'
}

installed() {  # whether a package is installed
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# python3-setuptools and python3-wheel: a build backend for Longhall in its venv that needs no
# download (pip --no-build-isolation), should a lock ever pin no setuptools of its own
PACKAGES=(python3 python3-venv python3-pip python3-setuptools python3-wheel rsync sqlite3
    network-manager polkitd)
# Debian's lgpio drives the pins on a Pi; plain Debian 12 has none: Longhall runs without buttons
# and lights there (the table display says so), so a missing python3-lgpio does not stop the install
if installed python3-lgpio || candidate python3-lgpio; then
    PACKAGES+=(python3-lgpio)
else
    echo "Note: no python3-lgpio on this system: Longhall runs without buttons and lights."
fi
if [ "$HOTSPOT" = 1 ]; then
    # NetworkManager's shared mode hands out addresses with dnsmasq; the access point is
    # wpa_supplicant's work (both only recommended by network-manager); nftables forwards port 80
    PACKAGES+=(dnsmasq-base wpasupplicant rfkill nftables)
fi
[ -n "$NAME" ] && PACKAGES+=(avahi-daemon)  # NAME.local (Raspberry Pi OS has it already)
if [ "$KIOSK" = 1 ]; then
    # Raspberry Pi OS calls its Chromium chromium-browser; Debian calls it chromium
    if installed chromium-browser || candidate chromium-browser; then
        PACKAGES+=(chromium-browser)
    else
        PACKAGES+=(chromium)
    fi
    PACKAGES+=(cage fonts-dejavu-core)
    # the kiosk sets the screen's mode and rotation with wlr-randr (cage 0.1.5 and newer)
    if [ "$RESOLUTION" != auto ] || [ "$ROTATE" != 0 ]; then
        if installed wlr-randr || candidate wlr-randr; then PACKAGES+=(wlr-randr); fi
    fi
fi
MISSING=()
for package in "${PACKAGES[@]}"; do
    installed "$package" || MISSING+=("$package")
done
say "Debian packages"
if [ ${#MISSING[@]} -eq 0 ]; then
    echo "= every package is installed already (no network needed)"
else
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${MISSING[@]}"
fi

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
# The packages requirements.lock pins, each checked against its hashes (the versions the tests
# passed with), from PyPI the first time; then Longhall in place (editable: the pages and scripts
# stay in the prefix), built with the lock's setuptools, no build isolation, so nothing else is
# fetched. Afterwards only when the lock or the project's files changed (the stamp holds them).
STAMP=$PREFIX/.venv/.longhall-installed
SUM=$(cat "$CLONE/requirements.lock" "$CLONE/pyproject.toml" "$CLONE/setup.py" | cksum)
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$SUM" ]; then
    echo "= Longhall's dependencies are unchanged (no network needed)"
else
    run "$PREFIX/.venv/bin/python" -m pip install --quiet --require-hashes -r "$PREFIX/requirements.lock"
    run "$PREFIX/.venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation -e "$PREFIX"
    printf '%s\n' "$SUM" | put 0644 root:root "$STAMP"
fi
# the service may not write __pycache__ (ProtectSystem=strict): compile it all now, as root
run "$PREFIX/.venv/bin/python" -m compileall -q "$PREFIX/server" "$PREFIX/hardware"

# -- 4. configuration -----------------------------------------------------------------------------

say "Configuration in $ETC"
run install -d -m 0755 "$ETC"
if [ -n "$GPIO_CONFIG" ]; then
    run install -m 0644 "$GPIO_CONFIG" "$ETC/pins.toml"
fi
# the options of this install, for the next run and --update (the hotspot's name and password
# are in $HOTSPOT_FILE, the pin map in $ETC/pins.toml)
put 0644 root:root "$SAVED" <<EOF
# Written by systemd/install.sh: the options of the last install. A later run keeps them.
port=$PORT
kiosk=$KIOSK
prefix=$PREFIX
hotspot=$HOTSPOT
country=$COUNTRY
own_pins=$OWN_PINS
hardware_watchdog=$WATCHDOG
power_button=$POWER_BUTTON
resolution=$RESOLUTION
rotate=$ROTATE
name=$NAME
EOF

# The hardware watchdog: systemd pings the SoC's watchdog; if the whole system hangs (the kernel,
# systemd itself), the Pi reboots by itself, and longhall.service comes back with the table.
WATCHDOG_CONF=/etc/systemd/system.conf.d/longhall-watchdog.conf
seconds=$WATCHDOG
if [ "$seconds" = auto ]; then
    if grep -qs "Raspberry Pi" /proc/device-tree/model; then seconds=15; else seconds=off; fi
fi
if [ "$seconds" != off ]; then
    say "The hardware watchdog: a reboot after ${seconds} s of a hung system"
    run install -d -m 0755 /etc/systemd/system.conf.d
    put 0644 root:root "$WATCHDOG_CONF" <<EOF
# Written by Longhall's install.sh (--hardware-watchdog): systemd keeps the SoC's watchdog fed;
# when the system hangs, the watchdog reboots the Pi.
[Manager]
RuntimeWatchdogSec=$seconds
RebootWatchdogSec=2min
EOF
    run systemctl daemon-reexec
else
    run_if "[ -e $WATCHDOG_CONF ]" rm -f "$WATCHDOG_CONF"
fi

# The journal's limits: a flood of log lines (a stranger's garbage, a loop) never fills the SD card.
say "The journal's limits: at most 64 MB on the SD card"
run install -d -m 0755 /etc/systemd/journald.conf.d
run install -m 0644 "$HERE/journald-longhall.conf" /etc/systemd/journald.conf.d/longhall.conf
run systemctl try-restart systemd-journald

# -- 5. the hotspot -------------------------------------------------------------------------------

HOTSPOT_SETTINGS=(
    autoconnect yes connection.autoconnect-priority 100
    802-11-wireless.mode ap 802-11-wireless.band bg
    ipv4.method shared ipv4.addresses "$HOTSPOT_ADDRESS/24" ipv6.method disabled
    # wpa-psk with rsn/ccmp and no PMF: what phones of every age join without trouble
    wifi-sec.key-mgmt wpa-psk wifi-sec.proto rsn wifi-sec.pairwise ccmp
    wifi-sec.group ccmp wifi-sec.pmf disable
)
if [ "$HOTSPOT" = 1 ] && [ "$NEW_HOTSPOT" = 0 ]; then
    # kept as it is: an SSH session may run over it, and nothing about it changed
    say "The Wi-Fi hotspot \"$SSID\" stays as it is (--no-hotspot removes it)"
elif [ "$HOTSPOT" = 1 ]; then
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
    # an existing hotspot is changed in place, not deleted: the change applies when it next
    # comes up (at the reboot), so an SSH session over it is not cut in the middle of the install
    if [ "$DRY_RUN" = 1 ] || nmcli -t -f NAME connection show 2>/dev/null | grep -qx "$HOTSPOT_NAME"; then
        run_if "nmcli -t -f NAME connection show | grep -qx $HOTSPOT_NAME" \
            nmcli connection modify "$HOTSPOT_NAME" ssid "$SSID" "${HOTSPOT_SETTINGS[@]}" \
            wifi-sec.psk "$PASSWORD"
    fi
    run_unless "nmcli -t -f NAME connection show | grep -qx $HOTSPOT_NAME" \
        nmcli connection add type wifi ifname "$WIFI" con-name "$HOTSPOT_NAME" ssid "$SSID" \
        "${HOTSPOT_SETTINGS[@]}" wifi-sec.psk "$PASSWORD"
    # the server reads the name and password to show the Wi-Fi QR code on the table display
    printf 'ssid=%s\npassword=%s\n' "$SSID" "$PASSWORD" | put 0640 root:longhall "$HOTSPOT_FILE"
else
    say "No hotspot (phones join the network the Pi is on)"
    # only ever on request (--no-hotspot), or when no install ever made one
    run_if "nmcli -t -f NAME connection show | grep -qx $HOTSPOT_NAME" \
        nmcli connection delete "$HOTSPOT_NAME"
    run_if "[ -e $HOTSPOT_FILE ]" rm -f "$HOTSPOT_FILE"
fi

# -- 5b. names -------------------------------------------------------------------------------------

DNS_CONF=/etc/NetworkManager/dnsmasq-shared.d/longhall.conf
if [ -n "$NAME" ]; then
    if [ "$HOTSPOT" = 1 ]; then
        say "Names: the table answers at $NAME.local, and at $NAME on the hotspot"
    else
        say "Names: the table answers at $NAME.local"
    fi
    # avahi publishes the host name as NAME.local (it follows a new name once restarted)
    if [ "$DRY_RUN" = 1 ] || [ "$(hostname)" != "$NAME" ]; then
        run_unless "[ \"\$(hostname)\" = $NAME ]" hostnamectl set-hostname "$NAME"
        # sudo and others look the host name up: 127.0.1.1 names it (Debian's way)
        run_if "grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts" \
            sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$NAME/" /etc/hosts
        run_unless "grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts" \
            sed -i "\$ a 127.0.1.1\t$NAME" /etc/hosts
        run_if "systemctl is-active -q avahi-daemon" systemctl restart avahi-daemon
    else
        echo "= the host name is $NAME already"
    fi
fi
if [ "$HOTSPOT" = 1 ]; then
    # read when the hotspot comes up (at the reboot): nothing is interrupted now
    run install -d -m 0755 "$(dirname "$DNS_CONF")"
    hotspot_dns | put 0644 root:root "$DNS_CONF"
    port80 | put 0644 root:root "$ETC/port80.nft"
    render "$HERE/longhall-port80.service" | put 0644 root:root "$UNITS/longhall-port80.service"
else
    run_if "[ -e $DNS_CONF ]" rm -f "$DNS_CONF"
    run_if "[ -e $UNITS/longhall-port80.service ]" systemctl disable --now longhall-port80.service
    run_if "[ -e $UNITS/longhall-port80.service ]" rm -f "$UNITS/longhall-port80.service" \
        "$ETC/port80.nft"
fi

# -- 6. powering off -----------------------------------------------------------------------------

if [ "$POWER_BUTTON" = 1 ]; then
    say "Powering off: a long press on HOST, and a power button on GPIO3"
else
    say "Powering off: a long press on HOST"
fi
# the server (user longhall) may power the Pi off, as a person at its console may
put 0644 root:root /etc/polkit-1/rules.d/50-longhall.rules <<'EOF'
// Written by Longhall's install.sh: the game-night server powers the Pi off at the end of the
// night (a long press on HOST), after closing its game store.
polkit.addRule(function (action, subject) {
    if ((action.id == "org.freedesktop.login1.power-off" ||
         action.id == "org.freedesktop.login1.power-off-multiple-sessions") &&
        subject.user == "longhall") {
        return polkit.Result.YES;
    }
});
EOF
CONFIG_TXT=/boot/firmware/config.txt
[ -f "$CONFIG_TXT" ] || [ "$DRY_RUN" = 1 ] || CONFIG_TXT=/boot/config.txt  # before Bookworm
if [ "$POWER_BUTTON" = 1 ]; then
    # a button between GPIO3 (header pin 5) and ground (pin 6): pressed, the Pi shuts down
    # cleanly; pressed while halted, it starts again (GPIO3 wakes the SoC). Read at boot.
    # appended under [all]: the file may end inside a model's own section ([pi4], [cm5], ...)
    run_unless "grep -qx dtoverlay=gpio-shutdown $CONFIG_TXT" \
        sed -i '$ a [all]\ndtoverlay=gpio-shutdown' "$CONFIG_TXT"
else
    run_if "grep -qx dtoverlay=gpio-shutdown $CONFIG_TXT" \
        sed -i '/^dtoverlay=gpio-shutdown$/d' "$CONFIG_TXT"
fi

# -- 7. the units ---------------------------------------------------------------------------------

say "The server's systemd unit"
render "$HERE/longhall.service" | put 0644 root:root "$UNITS/longhall.service"

if [ "$KIOSK" = 1 ]; then
    say "The kiosk: Chromium in cage on tty1"
    render "$HERE/longhall-kiosk.service" | put 0644 root:root "$UNITS/longhall-kiosk.service"
    put 0644 root:root /etc/pam.d/longhall-kiosk <"$HERE/longhall-kiosk.pam"
    # the kiosk's options (systemd/longhall-kiosk reads them at every start)
    put 0644 root:root "$ETC/kiosk.conf" <<EOF
# Written by systemd/install.sh (--resolution, --rotate): the table display's screen.
resolution=${RESOLUTION/#auto/}
rotate=$ROTATE
# seconds to wait for the server at start; seconds the page may stay silent before a restart
wait=120
health=60
EOF
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
if [ "$HOTSPOT" = 1 ]; then
    run systemctl enable longhall-port80.service
    run systemctl restart longhall-port80.service
fi
run systemctl enable longhall.service
run systemctl restart longhall.service
if [ "$KIOSK" = 1 ]; then
    run systemctl enable longhall-kiosk.service
    # a running kiosk picks up its new scripts and options (it is not started before a reboot)
    run systemctl try-restart longhall-kiosk.service
fi

say "Done"
cat <<EOF
The server runs as longhall.service; its game store is /var/lib/longhall/longhall.sqlite3.
  status:   systemctl status longhall longhall-kiosk
  logs:     journalctl -u longhall -u longhall-kiosk -b
  health:   curl http://127.0.0.1:$PORT/healthz
EOF
if [ "$HOTSPOT" = 1 ]; then
    echo "Phones join the Wi-Fi \"$SSID\", then http://$HOTSPOT_ADDRESS:$PORT/ (the QR codes show both)."
    [ -n "$NAME" ] && echo "On the hotspot the table is also http://$NAME/ (and http://$NAME.lan/)."
fi
if [ "$UPDATE" = 1 ]; then
    echo "Updated; the server was restarted with the new code."
elif [ "$KIOSK" = 1 ] || [ "$HOTSPOT" = 1 ]; then
    echo "Reboot now (sudo reboot): the Pi starts in the table display${SSID:+ with its own Wi-Fi}."
fi
