#!/usr/bin/env bash
# Make a Raspberry Pi a Longhall appliance: Raspberry Pi OS Bookworm or Trixie (Lite or Desktop),
# or plain Debian, from a clone of the repository or an unpacked release file.
#
#   sudo systemd/install.sh [options]     install, or change options (the others stay as saved)
#   sudo systemd/install.sh --update      after `git pull`: the same install, with the saved options
#   sudo /opt/longhall/current/systemd/install.sh --update FILE     a release file, offline
#   sudo /opt/longhall/current/systemd/install.sh --rollback        back to the release before
#
#   --hotspot SSID           run the Pi's own Wi-Fi (NetworkManager, offline): phones join it; its
#                            password from --password-file, else one is generated (and shown)
#   --password-file FILE     the Wi-Fi password, the first line of FILE ("-": standard input);
#                            never on the command line
#   --home-wifi SSID         join this Wi-Fi instead (with --password-file), e.g. at first boot
#   --no-hotspot             remove the hotspot (nothing else ever removes it)
#   --ssh-on-hotspot         let SSH be reached from the hotspot (off: only from other networks)
#   --country CC             the Wi-Fi country (e.g. DE, GB, US): the Pi's radio needs one
#   --language LL            the table display's language: en, nl, fr or de (default: English)
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
#   --no-kiosk | --kiosk     the server only (no table display on this Pi's screen), or both; the
#                            default: the kiosk, except on a board with less than 1 GB (Zero 2 W)
#   --expert-playouts N      the expert bots' play-outs per decision (auto: the server's, by the board)
#   --keep-swap-file         keep swap on the SD card (default: swap in compressed memory, zram);
#                            --swap-in-memory goes back to zram
#   --prefix DIR             where Longhall is installed (default /opt/longhall)
#   --hardware-watchdog S    reboot when the system hangs for S seconds (1-15; off: none); the
#                            default is 15 on a Raspberry Pi, off elsewhere
#   --update [FILE]          use the saved options (refused when there are none); with a release
#                            file (systemd/make-release), install that release offline: in a
#                            folder of its own, checked on a spare port, then switched to
#   --rollback               switch back to the release that ran before the last update
#   --no-start               change files only, start and stop nothing (an image being built,
#                            or the first boot): the units start at the next boot
#   --dry-run                print every step, every command and every file; change nothing
#   --render DIR             only write the filled-in unit files into DIR (for tests)
#
# The options are saved in /etc/longhall/install.conf: a later run (or --update) keeps them unless
# told otherwise. A run with nothing new to fetch needs no network: Debian packages are installed
# only when missing, and Longhall's dependencies come from a wheelhouse kept in the prefix.
# What it does: Debian packages; a gpio group and two system users (longhall: the server, in
# gpio; longhall-kiosk: the screen); Longhall in a release folder of its own in the prefix, with
# a venv that sees Debian's lgpio (--system-site-packages), checked on a spare port before the
# prefix's `current` link points to it; the Wi-Fi when asked; the server's and the kiosk's
# systemd units; the console boot the kiosk needs. Each step says how long it took.
# See docs/pi-setup.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLONE=$(dirname "$HERE")   # a clone of the repository, or an unpacked release (release.json)
PREFIX=/opt/longhall
PORT=8000
KIOSK=auto         # 1, 0, or auto: a kiosk unless the board has less than 1 GB
DRY_RUN=0
RENDER=""
UPDATE=0
UPDATE_FILE=""     # --update FILE: a release file
ROLLBACK=0
NO_START=0
SSID=""
PASSWORD=""
PASSWORD_FILE=""
HOTSPOT=0          # 1: run the hotspot (its name and password are in $HOTSPOT_FILE once saved)
NEW_HOTSPOT=0      # 1: a name was given now: (re)configure the connection
HOME_WIFI=""       # a Wi-Fi to join (given now)
SSH_ON_HOTSPOT=0   # 1: SSH is reachable from the hotspot too
COUNTRY=""
LANGUAGE=""        # the table display's language (empty: English, or the host's choice)
GPIO_CONFIG=""     # a pin map given now, to copy to $ETC/pins.toml
OWN_PINS=0         # 1: the server uses $ETC/pins.toml
POWER_BUTTON=0     # 1: dtoverlay=gpio-shutdown (GPIO3) in config.txt
RESOLUTION=auto    # the kiosk's screen mode (WxH), or auto
NAME=longhall      # the host name (NAME.local); empty: leave the host name alone
ROTATE=0           # the kiosk's rotation in degrees
WATCHDOG=auto      # the hardware watchdog's seconds, off, or auto (15 on a Raspberry Pi)
PLAYOUTS=auto      # the expert bots' play-outs per decision, or auto (the server's, by the board)
SWAP=zram          # zram, or card (keep the swap file on the SD card)
# where the options and the server's files live; LONGHALL_ETC and LONGHALL_SYSROOT (a folder
# standing for / where the system is read and, for an update, written) only for the tests
ETC=${LONGHALL_ETC:-/etc/longhall}
SYS=${LONGHALL_SYSROOT:-}
SAVED=$ETC/install.conf
UNITS=$SYS/etc/systemd/system
STORE=$SYS/var/lib/longhall/longhall.sqlite3
HOTSPOT_FILE=$ETC/hotspot
HOTSPOT_NAME=longhall-hotspot
HOME_NAME=longhall-home-wifi
CONNECTIONS=$SYS/etc/NetworkManager/system-connections
HOTSPOT_ADDRESS=10.42.0.1  # NetworkManager's shared mode; pinned below so it never moves
WIFI=wlan0
BOOT_DIR=/boot/firmware  # the SD card's boot partition
[ -d "$SYS$BOOT_DIR" ] || [ ! -f "$SYS/boot/config.txt" ] || BOOT_DIR=/boot  # before Bookworm
BOOT=$SYS$BOOT_DIR
# passwords nobody may keep: the examples in the docs and in longhall.txt
EXAMPLE_PASSWORDS=(a-long-secret night-of-games change-me-please)

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
    LANGUAGE=$(saved language)
    OWN_PINS=$(saved own_pins)
    HOTSPOT=$(saved hotspot)
    SSH_ON_HOTSPOT=$(saved ssh_on_hotspot)
    WATCHDOG=$(saved hardware_watchdog)
    POWER_BUTTON=$(saved power_button)
    RESOLUTION=$(saved resolution)
    grep -q '^name=' "$SAVED" && NAME=$(saved name)
    ROTATE=$(saved rotate)
    PLAYOUTS=$(saved expert_playouts)
    SWAP=$(saved swap)
    [ -n "$RESOLUTION" ] || RESOLUTION=auto
    [ -n "$ROTATE" ] || ROTATE=0
    [ -n "$POWER_BUTTON" ] || POWER_BUTTON=0
    [ -n "$WATCHDOG" ] || WATCHDOG=auto
    [ -n "$PORT" ] || PORT=8000
    [ -n "$KIOSK" ] || KIOSK=auto
    [ -n "$PREFIX" ] || PREFIX=/opt/longhall
    [ -n "$OWN_PINS" ] || OWN_PINS=0
    [ -n "$HOTSPOT" ] || HOTSPOT=0
    [ -n "$SSH_ON_HOTSPOT" ] || SSH_ON_HOTSPOT=0
    [ -n "$PLAYOUTS" ] || PLAYOUTS=auto
    [ -n "$SWAP" ] || SWAP=zram
fi

while [ $# -gt 0 ]; do
    case "$1" in
        --hotspot)
            [ $# -ge 2 ] && [[ $2 != --* ]] || die "--hotspot needs the Wi-Fi's name"
            SSID=$2 HOTSPOT=1 NEW_HOTSPOT=1
            shift 2
            if [ $# -gt 0 ] && [[ $1 != --* ]]; then
                die "the Wi-Fi password is never given on the command line (others on the Pi see" \
                    "it, and the shell keeps it): use --password-file FILE, or give none and one" \
                    "is made"
            fi
            ;;
        --password-file)
            [ $# -ge 2 ] || die "--password-file needs a file (or - for standard input)"
            PASSWORD_FILE=$2
            shift 2
            ;;
        --home-wifi)
            [ $# -ge 2 ] || die "--home-wifi needs the Wi-Fi's name"
            HOME_WIFI=$2 HOTSPOT=0 NEW_HOTSPOT=0
            shift 2
            ;;
        --no-hotspot) HOTSPOT=0 NEW_HOTSPOT=0; shift ;;
        --ssh-on-hotspot) SSH_ON_HOTSPOT=1; shift ;;
        --no-ssh-on-hotspot) SSH_ON_HOTSPOT=0; shift ;;
        --country) [ $# -ge 2 ] || die "--country needs a code"; COUNTRY=$2; shift 2 ;;
        --language) [ $# -ge 2 ] || die "--language needs en, nl, fr or de"; LANGUAGE=$2; shift 2 ;;
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
        --expert-playouts)
            [ $# -ge 2 ] || die "--expert-playouts needs a number or auto"
            PLAYOUTS=$2
            shift 2
            ;;
        --keep-swap-file) SWAP=card; shift ;;
        --swap-in-memory) SWAP=zram; shift ;;
        --power-button) POWER_BUTTON=1; shift ;;
        --name) [ $# -ge 2 ] || die "--name needs a host name"; NAME=$2; shift 2 ;;
        --keep-hostname) NAME=""; shift ;;
        --resolution) [ $# -ge 2 ] || die "--resolution needs WxH or auto"; RESOLUTION=$2; shift 2 ;;
        --rotate) [ $# -ge 2 ] || die "--rotate needs degrees"; ROTATE=$2; shift 2 ;;
        --no-power-button) POWER_BUTTON=0; shift ;;
        --no-kiosk) KIOSK=0; shift ;;
        --kiosk) KIOSK=1; shift ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --update)
            UPDATE=1
            shift
            if [ $# -gt 0 ] && [[ $1 != --* ]]; then UPDATE_FILE=$1; shift; fi
            ;;
        --rollback) ROLLBACK=1; shift ;;
        --no-start) NO_START=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --render) [ $# -ge 2 ] || die "--render needs a directory"; RENDER=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done
if { [ "$UPDATE" = 1 ] || [ "$ROLLBACK" = 1 ]; } && [ ! -f "$SAVED" ]; then
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
if [ -n "$PASSWORD_FILE" ]; then
    [ "$NEW_HOTSPOT" = 1 ] || [ -n "$HOME_WIFI" ] \
        || die "--password-file goes with --hotspot or --home-wifi"
    if [ "$PASSWORD_FILE" = - ]; then
        IFS= read -r PASSWORD || [ -n "$PASSWORD" ] || die "no password on standard input"
    else
        [ -r "$PASSWORD_FILE" ] || die "cannot read the password file $PASSWORD_FILE"
        IFS= read -r PASSWORD <"$PASSWORD_FILE" || [ -n "$PASSWORD" ] \
            || die "the password file $PASSWORD_FILE is empty"
    fi
    PASSWORD=${PASSWORD%$'\r'}
fi
GENERATED=0
if [ "$NEW_HOTSPOT" = 1 ] && [ -z "$PASSWORD" ]; then
    # three groups of four letters and digits that cannot be mistaken for each other: about 62
    # bits, typed on a phone in seconds, and shown on the table display with the Wi-Fi QR code
    PASSWORD=$(python3 -c 'import secrets
a = "abcdefghjkmnpqrstuvwxyz23456789"
print("-".join("".join(secrets.choice(a) for _ in range(4)) for _ in range(3)))')
    GENERATED=1
fi

# -- checks: refuse what would make a broken unit or hotspot ------------------------------------

[[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || die "bad port: $PORT"
[[ $PREFIX == /* && $PREFIX != *[[:space:]%\\]* ]] \
    || die "the prefix must be an absolute path without spaces, % or \\: $PREFIX"
if [ "$NEW_HOTSPOT" = 1 ] || [ -n "$HOME_WIFI" ]; then
    [ -n "$HOME_WIFI" ] && SSID=$HOME_WIFI
    [ "${#SSID}" -ge 1 ] && [ "${#SSID}" -le 32 ] || die "a Wi-Fi name has 1 to 32 characters"
    [ "${#PASSWORD}" -ge 8 ] && [ "${#PASSWORD}" -le 63 ] \
        || die "a Wi-Fi password (WPA2) has 8 to 63 characters"
    [[ $PASSWORD =~ ^[[:print:]]+$ ]] || die "a Wi-Fi password has printable characters only"
    for example in "${EXAMPLE_PASSWORDS[@]}"; do
        [ "$PASSWORD" != "$example" ] \
            || die "\"$example\" is the example password of the docs: everyone knows it; choose" \
                "your own, or give none and one is made"
    done
fi
[ "$HOTSPOT" = 0 ] || [ -z "$HOME_WIFI" ] || die "the Pi has one Wi-Fi: a hotspot or --home-wifi"
case "$LANGUAGE" in "" | en | nl | fr | de) ;; *) die "the language is en, nl, fr or de" ;; esac
case "$KIOSK" in 0 | 1 | auto) ;; *) die "kiosk is 1, 0 or auto in $SAVED" ;; esac
[[ $PLAYOUTS == auto || ( $PLAYOUTS =~ ^[0-9]+$ && $PLAYOUTS -ge 1 && $PLAYOUTS -le 10000 ) ]] \
    || die "--expert-playouts takes a number from 1 to 10000, or auto"
[ -z "$UPDATE_FILE" ] || [ -f "$UPDATE_FILE" ] || die "no such release file: $UPDATE_FILE"
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

# What the board is: its model, its memory (the kiosk)
MODEL=$(tr -d '\0' 2>/dev/null <"$SYS/proc/device-tree/model" || true)
MEMORY_KB=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' "$SYS/proc/meminfo" 2>/dev/null || true)
MEMORY_KB=${MEMORY_KB:-0}
on_a_pi() { [[ $MODEL == *"Raspberry Pi"* ]]; }
KIOSK_NOTE=""
if [ "$KIOSK" = auto ]; then
    # Chromium wants more than a Zero 2 W's 512 MB: the server alone keeps the table quick, and the
    # table display is opened on another screen's browser (a TV's, a laptop's)
    if [ "$MEMORY_KB" -gt 0 ] && [ "$MEMORY_KB" -lt 786432 ]; then
        KIOSK_ON=0
        KIOSK_NOTE="This board has $((MEMORY_KB / 1024)) MB of memory, less than the 1 GB the table display's browser needs next to the server: no kiosk on this Pi (--kiosk puts it there anyway). Open the table display on another screen's browser."
    else
        KIOSK_ON=1
    fi
else
    KIOSK_ON=$KIOSK
fi
# auto: the server gives the expert bots the share of their budget this board affords
# (server/appliance/board.py); a number is the host's own
EXPERT=$PLAYOUTS
[ "$EXPERT" = auto ] && EXPERT=""

# The server's options beyond the port: the pin map, the hotspot's file and the address phones
# use (with the hotspot on, phones are on its network, where the Pi is always 10.42.0.1).
OPTIONS=()
[ "$OWN_PINS" = 1 ] && OPTIONS+=(--gpio-config "$ETC/pins.toml")
if [ "$HOTSPOT" = 1 ]; then
    OPTIONS+=(--hotspot-file "$HOTSPOT_FILE" --public-url "http://$HOTSPOT_ADDRESS:$PORT")
fi

# -- doing, or only saying ------------------------------------------------------------------------

# Each step says how long the one before it took, and the end sums them up: a slow step on a
# Zero 2 W (pip, Chromium's packages) is then seen, not guessed.
STEP_NAME=""
STEP_STARTED=$SECONDS
TIMINGS=()
step_done() {
    [ -n "$STEP_NAME" ] || return 0
    local took=$((SECONDS - STEP_STARTED))
    TIMINGS+=("$(printf '%4d s  %s' "$took" "$STEP_NAME")")
    printf '    (%d s)\n' "$took"
}
say() {
    step_done
    STEP_NAME=$*
    STEP_STARTED=$SECONDS
    printf '\n==> %s\n' "$*"
}
timings() {
    step_done
    STEP_NAME=""
    echo
    echo "How long each step took (in all $SECONDS s):"
    printf '%s\n' "${TIMINGS[@]}"
}

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
    text=${text//@BOOT@/$BOOT_DIR}
    text=${text//@OPTIONS@/${OPTIONS[*]}}
    text=${text//@PLAYOUTS@/${EXPERT:+ LONGHALL_EXPERT_PLAYOUTS=$EXPERT}}
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

port80() {  # the nftables rules: port 80 of the hotspot's address to the server; SSH closed to it
    cat <<EOF
# Written by Longhall's install.sh: port 80 of the hotspot's address to the server (port $PORT),
# and SSH closed to the hotspot's Wi-Fi unless --ssh-on-hotspot (its players are not its admins).
table ip longhall
flush table ip longhall
table ip longhall {
    chain prerouting {
        type nat hook prerouting priority dstnat; policy accept;
        ip daddr $HOTSPOT_ADDRESS tcp dport 80 redirect to :$PORT
    }
}
table inet longhall_ssh
EOF
    if [ "$SSH_ON_HOTSPOT" = 1 ]; then
        echo "delete table inet longhall_ssh"
    else
        cat <<EOF
flush table inet longhall_ssh
table inet longhall_ssh {
    chain input {
        type filter hook input priority filter; policy accept;
        iifname "$WIFI" tcp dport 22 drop
    }
}
EOF
    fi
}

nm_escape() {  # a value as NetworkManager's keyfiles (GKeyFile) read it back unchanged
    local value=${1//\\/\\\\}
    [[ $value == " "* ]] && value="\\s${value:1}"
    printf '%s' "$value"
}

ssid_bytes() {  # a Wi-Fi name as the list of its bytes: read back exactly, whatever it holds
    local out="" byte
    for byte in $(printf '%s' "$1" | od -An -tu1); do out+="$byte;"; done
    printf '%s' "$out"
}

wifi_keyfile() {  # wifi_keyfile ID UUID MODE SSID PASSWORD: a NetworkManager connection (keyfile)
    local id=$1 uuid=$2 mode=$3 ssid=$4 password=$5
    cat <<EOF
# Written by Longhall's install.sh (docs/pi-setup.md). The Wi-Fi password stays in this file
# (mode 0600), never on a command line.
[connection]
id=$id
uuid=$uuid
type=wifi
interface-name=$WIFI
autoconnect=true
EOF
    if [ "$mode" = ap ]; then
        cat <<EOF
autoconnect-priority=100

[wifi]
mode=ap
band=bg
ssid=$(ssid_bytes "$ssid")

[wifi-security]
key-mgmt=wpa-psk
proto=rsn;
pairwise=ccmp;
group=ccmp;
pmf=1
psk=$(nm_escape "$password")

[ipv4]
method=shared
address1=$HOTSPOT_ADDRESS/24

[ipv6]
method=disabled
EOF
    else
        cat <<EOF

[wifi]
mode=infrastructure
ssid=$(ssid_bytes "$ssid")

[wifi-security]
key-mgmt=wpa-psk
psk=$(nm_escape "$password")

[ipv4]
method=auto

[ipv6]
method=auto
EOF
    fi
}

if [ -n "$RENDER" ]; then
    mkdir -p "$RENDER"
    render "$HERE/longhall.service" >"$RENDER/longhall.service"
    render "$HERE/longhall-kiosk.service" >"$RENDER/longhall-kiosk.service"
    cp "$HERE/longhall-kiosk.pam" "$RENDER/longhall-kiosk.pam"
    render "$HERE/longhall-port80.service" >"$RENDER/longhall-port80.service"
    render "$HERE/longhall-firstboot.service" >"$RENDER/longhall-firstboot.service"
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
if ! on_a_pi; then
    echo "Note: this is not a Raspberry Pi: the server will run without buttons and lights."
fi
[ -z "$KIOSK_NOTE" ] || echo "Note: $KIOSK_NOTE"

# -- releases: each in a folder of its own, checked before `current` points to it ----------------

RELEASES=$PREFIX/releases
CURRENT=$PREFIX/current
PREVIOUS=$PREFIX/previous
UNPACKED=""                    # a release file being unpacked (removed on the way out)
PARTIAL=""                     # a release folder being made (removed unless it is finished)
WHEELHOUSE=$PREFIX/wheelhouse  # every wheel a release brought or the internet gave: offline later

store_owner() {  # the game store's owner: the service's user (whoever runs this, in tests)
    if [ -f "$STORE" ]; then
        stat -c %U "$STORE"
    elif [ -z "$SYS" ] && id -u longhall >/dev/null 2>&1; then
        echo longhall
    else
        id -un
    fi
}

as_store_owner() {  # run a command as the game store's owner
    local owner
    owner=$(store_owner)
    if [ "$(id -un)" = "$owner" ]; then "$@"; else runuser -u "$owner" -- "$@"; fi
}

become_store_owner() {  # in a background job (its own subshell): become the command, as the
    local owner         # store's owner, so that `kill $!` stops it (runuser passes the signal on)
    owner=$(store_owner)
    if [ "$(id -un)" = "$owner" ]; then exec "$@"; else exec runuser -u "$owner" -- "$@"; fi
}

check_release() {  # check_release DIR: its server starts, with a copy of the store, on a spare port
    local dir=$1 port work pid ok=1
    if [ "$NO_START" = 1 ]; then
        echo "= not started here (--no-start): the release starts at the next boot"
        return 0
    elif [ "$DRY_RUN" = 1 ]; then
        echo "+ check $dir on a spare port with a copy of the store (longhall serve, /healthz)"
        return 0
    fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    work=$(mktemp -d)
    chown "$(store_owner)" "$work"
    if [ -f "$STORE" ]; then  # SQLite's own copy: safe while the table writes to it
        as_store_owner "$dir/.venv/bin/python" -c 'import sqlite3, sys
with sqlite3.connect(sys.argv[1]) as live, sqlite3.connect(sys.argv[2]) as copy:
    live.backup(copy)' "$STORE" "$work/longhall.sqlite3" || ok=0
    fi
    if [ "$ok" = 1 ]; then
        echo "+ check $dir on a spare port with a copy of the store (port $port)"
        become_store_owner "$dir/.venv/bin/longhall" serve --host 127.0.0.1 --port "$port" \
            --data-dir "$work" --gpio off >"$work/server.log" 2>&1 &
        pid=$!
        python3 "$dir/systemd/wait-for-healthz" --timeout 300 "http://127.0.0.1:$port/healthz" \
            || ok=0
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        if [ "$ok" = 0 ]; then
            echo "The new release's server did not answer; what it said:" >&2
            tail -n 20 "$work/server.log" >&2
        fi
    fi
    rm -rf "$work"
    [ "$ok" = 1 ]
}

switch_to() {  # switch_to DIR: point `current` at DIR (one rename: atomic), `previous` at the last
    local dir=$1 was=""
    [ -L "$CURRENT" ] && was=$(readlink "$CURRENT")
    run ln -sfn "releases/$(basename "$dir")" "$PREFIX/.current.new"
    run mv -T "$PREFIX/.current.new" "$CURRENT"
    if [ -n "$was" ] && [ "$was" != "releases/$(basename "$dir")" ]; then
        run ln -sfn "$was" "$PREFIX/.previous.new"
        run mv -T "$PREFIX/.previous.new" "$PREVIOUS"
    fi
}

prune_releases() {  # keep the current release and the one before it
    local keep_current keep_previous dir
    [ "$DRY_RUN" = 0 ] || return 0
    keep_current=$(readlink "$CURRENT" 2>/dev/null || true)
    keep_previous=$(readlink "$PREVIOUS" 2>/dev/null || true)
    for dir in "$RELEASES"/*; do
        [ -d "$dir" ] || continue
        case "releases/$(basename "$dir")" in
            "$keep_current" | "$keep_previous") ;;
            *) run rm -rf "$dir" ;;
        esac
    done
}

abandon_release() {  # on the way out of a failed install_release: nothing half made stays
    local status=$?
    rm -rf "$PARTIAL" "${UNPACKED:-$PARTIAL}"
    if [ "$status" != 0 ]; then
        echo "install.sh: the new release could not be installed (see above); the table runs on" \
            "as it was." >&2
    fi
}

install_release() {  # install_release SOURCE SUM: a new release folder from SOURCE; sets NEW
    local source=$1 sum=$2 version
    version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$source/pyproject.toml" 2>/dev/null || true)
    [ -n "$version" ] || version=$(sed -n 's/^ *"version": "\(.*\)",*/\1/p' "$source/release.json" 2>/dev/null || true)
    NEW=$RELEASES/${version:-unknown}-$(date +%Y%m%d-%H%M%S)-$$
    # made at its own name (a venv cannot move: its scripts name their Python), and removed again
    # if anything fails before the end; `current` points to it only once it is whole and checked
    PARTIAL=$NEW
    local partial=$PARTIAL
    # a failure from here on leaves the running table as it is: the half-made folder goes
    [ "$DRY_RUN" = 1 ] || trap abandon_release EXIT
    run install -d -m 0755 "$RELEASES" "$WHEELHOUSE"
    if [ -f "$source/SHA256SUMS" ] && [ "$(dirname "$source")" != "$CLONE" ] \
        && [[ $source == "$RELEASES"/.unpack-*/* ]]; then
        run mv -T "$source" "$partial"  # unpacked here already: it becomes the release's folder
        source=$partial
    else
        # a copy owned by root: the service reads it and cannot change it
        run rsync -a --delete --chown=root:root --chmod=u+rwX,go+rX,go-w \
            --exclude=.git --exclude=.venv --exclude='*.egg-info' --exclude=__pycache__ \
            --exclude=.pytest_cache --exclude=.mypy_cache --exclude=.ruff_cache --exclude=build \
            --exclude=dist --exclude=test-artifacts "$source/" "$partial/"
    fi
    # --system-site-packages: Debian's python3-lgpio is what gpiozero drives the pins with
    run python3 -m venv --system-site-packages "$partial/.venv"
    local pip=("$partial/.venv/bin/python" -m pip install --quiet --no-index)
    if [ -d "$source/wheelhouse" ]; then  # a release file: everything is in it
        run cp -n "$source"/wheelhouse/*.whl "$WHEELHOUSE/"
        run "${pip[@]}" --find-links "$source/wheelhouse" --require-hashes -r "$partial/requirements.lock"
        run "${pip[@]}" --no-deps "$partial"/longhall-*.whl
        run rm -rf "$partial/wheelhouse"  # its wheels are kept in $WHEELHOUSE
    else  # a clone: the packages requirements.lock pins, from the wheelhouse, else from PyPI once
        if [ "$DRY_RUN" = 1 ] || ! "${pip[@]}" --find-links "$WHEELHOUSE" --require-hashes \
            -r "$partial/requirements.lock" 2>/dev/null; then
            run "$partial/.venv/bin/python" -m pip download --quiet --require-hashes \
                -r "$partial/requirements.lock" -d "$WHEELHOUSE"
            run "${pip[@]}" --find-links "$WHEELHOUSE" --require-hashes -r "$partial/requirements.lock"
        else
            echo "= the dependencies came from $WHEELHOUSE (no network needed)"
        fi
        # Longhall itself, built with the lock's setuptools, no build isolation: nothing fetched
        run "${pip[@]}" --no-deps --no-build-isolation "$partial"
        run rm -rf "$partial/build"
    fi
    printf '%s\n' "$sum" | put 0644 root:root "$partial/.source"
    check_release "$partial" || {
        echo "install.sh: the new release's server did not start." >&2
        exit 1
    }
    [ "$DRY_RUN" = 1 ] || trap - EXIT
}

restart_and_check() {  # restart the table on the current release; back to PREVIOUS if it fails
    local previous=$1
    run systemctl daemon-reload
    run systemctl restart longhall.service
    [ "$KIOSK_ON" = 0 ] || run systemctl try-restart longhall-kiosk.service
    [ "$DRY_RUN" = 0 ] || return 0
    if ! python3 "$CURRENT/systemd/wait-for-healthz" --timeout 300 \
        "http://127.0.0.1:$PORT/healthz" >/dev/null; then
        if [ -n "$previous" ]; then
            echo "install.sh: the table did not come back on the new release: back to $previous." >&2
            switch_to "$PREFIX/$previous"
            run systemctl restart longhall.service
            [ "$KIOSK_ON" = 0 ] || run systemctl try-restart longhall-kiosk.service
        fi
        echo "install.sh: see journalctl -u longhall -b for why." >&2
        exit 1
    fi
}

if [ -n "$UPDATE_FILE" ]; then
    say "Unpacking and checking $UPDATE_FILE"
    run install -d -m 0755 "$RELEASES"
    UNPACKED=$(mktemp -d "$RELEASES/.unpack-XXXXXX")
    trap 'rm -rf "$UNPACKED"' EXIT
    tar -xf "$UPDATE_FILE" -C "$UNPACKED" --no-same-owner \
        || die "$UPDATE_FILE is no release file (tar could not read it)"
    FOUND=("$UNPACKED"/longhall-*/release.json)
    [ -f "${FOUND[0]}" ] || die "$UPDATE_FILE is no Longhall release (no release.json)"
    SOURCE=$(dirname "${FOUND[0]}")
    (cd "$SOURCE" && sha256sum --quiet --strict -c SHA256SUMS) \
        || die "$UPDATE_FILE is damaged: a file in it does not match its checksum"
    say "Installing the release in a folder of its own, offline"
    WAS=$(readlink "$CURRENT" 2>/dev/null || true)
    install_release "$SOURCE" "$(sha256sum "$SOURCE/SHA256SUMS" | cut -d' ' -f1)"
    rm -rf "$UNPACKED"
    trap - EXIT
    say "Switching the table to $(basename "$NEW")"
    switch_to "$NEW"
    # the units as the new release writes them (they point at $CURRENT: mostly unchanged)
    HERE=$NEW/systemd
    render "$HERE/longhall.service" | put 0644 root:root "$UNITS/longhall.service"
    if [ "$KIOSK_ON" = 1 ]; then
        render "$HERE/longhall-kiosk.service" | put 0644 root:root "$UNITS/longhall-kiosk.service"
    fi
    restart_and_check "$WAS"
    prune_releases
    timings
    echo "Updated to $(basename "$NEW"); the release before stays: --rollback returns to it."
    exit 0
fi

if [ "$ROLLBACK" = 1 ]; then
    [ -L "$PREVIOUS" ] && [ -d "$PREVIOUS/" ] || die "there is no earlier release to return to"
    say "Back to $(readlink "$PREVIOUS")"
    WAS=$(readlink "$CURRENT")
    switch_to "$PREFIX/$(readlink "$PREVIOUS")"
    HERE=$CURRENT/systemd
    render "$HERE/longhall.service" | put 0644 root:root "$UNITS/longhall.service"
    restart_and_check "$WAS"
    timings
    echo "The table runs $(readlink "$CURRENT") again; $WAS stays (an update or --rollback)."
    exit 0
fi

NOW=--now  # stop what is disabled, unless nothing may be stopped now
[ "$NO_START" = 0 ] || NOW=""

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
if [ "$KIOSK_ON" = 1 ]; then
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
# swap in compressed memory instead of a swap file on the SD card (Trixie's rpi-swap does so already)
if [ "$SWAP" = zram ] && ! installed rpi-swap && candidate systemd-zram-generator; then
    PACKAGES+=(systemd-zram-generator)
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
if [ "$KIOSK_ON" = 1 ]; then
    run_unless "id -u longhall-kiosk" useradd --system --user-group \
        --home-dir /var/lib/longhall-kiosk --no-create-home --shell /usr/sbin/nologin longhall-kiosk
    # the screen (video, render) and the keyboard or touch screen (input)
    run usermod --append --groups video,render,input longhall-kiosk
fi

# -- 3. Longhall itself ---------------------------------------------------------------------------

say "Longhall in $RELEASES, each release with its venv"
# what this source holds: nothing new, nothing to do (and no network needed)
if [ -f "$CLONE/SHA256SUMS" ]; then
    SUM=$(sha256sum "$CLONE/SHA256SUMS" | cut -d' ' -f1)
else
    SUM=$(cd "$CLONE" && find requirements.lock pyproject.toml setup.py server hardware phone_ui \
        table_display systemd docs -type f ! -name '*.pyc' -print0 2>/dev/null | sort -z \
        | xargs -0 cat | sha256sum | cut -d' ' -f1)
fi
WAS=$(readlink "$CURRENT" 2>/dev/null || true)
if [ -f "$CURRENT/.source" ] && [ "$(cat "$CURRENT/.source")" = "$SUM" ]; then
    echo "= Longhall is unchanged in $(readlink "$CURRENT") (no network needed)"
else
    install_release "$CLONE" "$SUM"
    switch_to "$NEW"
fi

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
ssh_on_hotspot=$SSH_ON_HOTSPOT
country=$COUNTRY
language=$LANGUAGE
expert_playouts=$PLAYOUTS
swap=$SWAP
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
    if on_a_pi; then seconds=15; else seconds=off; fi
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
    [ "$NO_START" = 1 ] || run systemctl daemon-reexec
else
    run_if "[ -e $WATCHDOG_CONF ]" rm -f "$WATCHDOG_CONF"
fi

# The journal's limits: a flood of log lines (a stranger's garbage, a loop) never fills the SD card.
say "The journal's limits: at most 64 MB on the SD card"
run install -d -m 0755 /etc/systemd/journald.conf.d
run install -m 0644 "$HERE/journald-longhall.conf" /etc/systemd/journald.conf.d/longhall.conf
[ "$NO_START" = 1 ] || run systemctl try-restart systemd-journald

# -- 5. the hotspot -------------------------------------------------------------------------------

wifi_connection() {  # wifi_connection ID MODE: write its keyfile; NetworkManager reads it
    local id=$1 mode=$2 file=$CONNECTIONS/$1.nmconnection uuid=""
    # kept: the connection's own id, so NetworkManager changes it in place (applies at the reboot:
    # an SSH session over the hotspot is not cut in the middle of the install)
    [ -f "$file" ] && uuid=$(sed -n 's/^uuid=//p' "$file" | head -n 1)
    [ -n "$uuid" ] || uuid=$(cat /proc/sys/kernel/random/uuid)
    run install -d -m 0700 "$CONNECTIONS"
    wifi_keyfile "$id" "$uuid" "$mode" "$SSID" "$PASSWORD" | sed "s/^psk=.*/psk=(hidden)/" \
        | sed 's/^/    | /' | { printf '+ write %s (mode 0600, owner root:root)\n' "$file"; cat; }
    if [ "$DRY_RUN" = 0 ]; then
        local tmp
        tmp=$(mktemp "$file.XXXXXX")
        chmod 0600 "$tmp"
        wifi_keyfile "$id" "$uuid" "$mode" "$SSID" "$PASSWORD" >"$tmp"
        mv -f "$tmp" "$file"
    fi
    [ "$NO_START" = 1 ] || run nmcli connection reload
}

wifi_country() {
    [ -n "$COUNTRY" ] || return 0
    if command -v raspi-config >/dev/null 2>&1 || [ "$DRY_RUN" = 1 ]; then
        run raspi-config nonint do_wifi_country "$COUNTRY"
    elif [ "$NO_START" = 0 ]; then
        run iw reg set "$COUNTRY"
    fi
}

if [ "$HOTSPOT" = 1 ] && [ "$NEW_HOTSPOT" = 0 ]; then
    # kept as it is: an SSH session may run over it, and nothing about it changed
    say "The Wi-Fi hotspot \"$SSID\" stays as it is (--no-hotspot removes it)"
elif [ "$HOTSPOT" = 1 ]; then
    say "The Wi-Fi hotspot \"$SSID\" (NetworkManager, shared mode at $HOTSPOT_ADDRESS)"
    wifi_country
    if [ "$NO_START" = 0 ]; then
        run rfkill unblock wifi
        run nmcli radio wifi on
    fi
    wifi_connection "$HOTSPOT_NAME" ap
    run_if "[ -e $CONNECTIONS/$HOME_NAME.nmconnection ]" rm -f "$CONNECTIONS/$HOME_NAME.nmconnection"
    # the server reads the name and password to show the Wi-Fi QR code on the table display
    printf 'ssid=%s\npassword=%s\n' "$SSID" "$PASSWORD" | put 0640 root:longhall "$HOTSPOT_FILE"
else
    if [ -n "$HOME_WIFI" ]; then
        say "Joining the Wi-Fi \"$SSID\""
        wifi_country
        wifi_connection "$HOME_NAME" infrastructure
    else
        say "No hotspot (phones join the network the Pi is on)"
    fi
    # only ever on request (--no-hotspot, --home-wifi), or when no install ever made one
    run_if "[ -e $CONNECTIONS/$HOTSPOT_NAME.nmconnection ]" \
        rm -f "$CONNECTIONS/$HOTSPOT_NAME.nmconnection"
    if [ "$NO_START" = 0 ]; then
        run_if "nmcli -t -f NAME connection show | grep -qx $HOTSPOT_NAME" \
            nmcli connection delete "$HOTSPOT_NAME"
    fi
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
        if [ "$NO_START" = 1 ]; then  # no hostnamed in an image being built
            printf '%s\n' "$NAME" | put 0644 root:root /etc/hostname
        else
            run_unless "[ \"\$(hostname)\" = $NAME ]" hostnamectl set-hostname "$NAME"
        fi
        # sudo and others look the host name up: 127.0.1.1 names it (Debian's way)
        run_if "grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts" \
            sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$NAME/" /etc/hosts
        run_unless "grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts" \
            sed -i "\$ a 127.0.1.1\t$NAME" /etc/hosts
        [ "$NO_START" = 1 ] || run_if "systemctl is-active -q avahi-daemon" systemctl restart avahi-daemon
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
    run_if "[ -e $UNITS/longhall-port80.service ]" systemctl disable $NOW longhall-port80.service
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
CONFIG_TXT=$BOOT/config.txt
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

say "The server's systemd units"
render "$HERE/longhall.service" | put 0644 root:root "$UNITS/longhall.service"
# longhall.txt on the boot partition, applied at the next boot (only while the file is there)
render "$HERE/longhall-firstboot.service" | put 0644 root:root "$UNITS/longhall-firstboot.service"

CMDLINE=$BOOT/cmdline.txt
if [ "$KIOSK_ON" = 1 ]; then
    say "The kiosk: Chromium in cage on tty1"
    render "$HERE/longhall-kiosk.service" | put 0644 root:root "$UNITS/longhall-kiosk.service"
    put 0644 root:root /etc/pam.d/longhall-kiosk <"$HERE/longhall-kiosk.pam"
    # the kiosk's options (systemd/longhall-kiosk reads them at every start)
    put 0644 root:root "$ETC/kiosk.conf" <<EOF
# Written by systemd/install.sh (--resolution, --rotate, --language): the table display's screen.
resolution=${RESOLUTION/#auto/}
rotate=$ROTATE
language=$LANGUAGE
# seconds the starting page waits for the server before it says what to do (it keeps waiting);
# seconds the page may stay silent before a restart; seconds Chromium has for its first word
wait=120
health=60
grace=180
EOF
    # the Desktop's own session would take the screen: boot to the console, the kiosk takes tty1
    run_if "[ \"\$(systemctl get-default)\" = graphical.target ]" \
        systemctl set-default multi-user.target
    if [ "$DRY_RUN" = 1 ] || [ -f "$CMDLINE" ]; then
        # no console blanking before the kiosk's first frame (or while it restarts)
        run_unless "grep -q consoleblank=0 $CMDLINE" sed -i '1 s/$/ consoleblank=0/' "$CMDLINE"
    fi
else
    run_if "[ -e $UNITS/longhall-kiosk.service ]" systemctl disable $NOW longhall-kiosk.service
fi
# The screen's mode: Bookworm's cage (0.1.4) cannot set it (no output management: wlr-randr has
# nothing to talk to), so a 4K TV draws at 4K; the kernel sets it at boot instead (video= for
# each HDMI output). A newer cage sets it itself, and an older entry of ours goes.
CAGE_VERSION=$(dpkg-query -W -f='${Version}' cage 2>/dev/null || true)
if [ -z "$CAGE_VERSION" ]; then
    CAGE_VERSION=$(apt-cache policy cage 2>/dev/null | sed -n 's/^ *Candidate: //p' | head -n 1)
fi
OLD_CAGE=0
if [ "$KIOSK_ON" = 1 ] && [ -n "$CAGE_VERSION" ] && [ "$CAGE_VERSION" != "(none)" ] \
    && dpkg --compare-versions "$CAGE_VERSION" lt 0.1.5; then
    OLD_CAGE=1
fi
if [ "$DRY_RUN" = 1 ] || [ -f "$CMDLINE" ]; then
    run_if "grep -q ' video=HDMI-A-[12]:' $CMDLINE" sed -i -E '1 s/ video=HDMI-A-[12]:[^ ]*//g' "$CMDLINE"
    if [ "$OLD_CAGE" = 1 ] && [ "$RESOLUTION" != auto ]; then
        mode=${RESOLUTION%Hz}
        [[ $mode == *@* ]] || mode=$mode@60
        run sed -i "1 s/\$/ video=HDMI-A-1:$mode video=HDMI-A-2:$mode/" "$CMDLINE"
        echo "cage $CAGE_VERSION cannot set the screen's mode: the kernel sets $mode at boot ($CMDLINE)."
    fi
fi

# -- 8. the SD card: swap in memory -------------------------------------------------------------

ZRAM_CONF=/etc/systemd/zram-generator.conf
if [ "$SWAP" = zram ]; then
    say "Swap in compressed memory (zram), not on the SD card"
    if installed rpi-swap; then
        echo "= Raspberry Pi OS's rpi-swap manages swap already"
    else
        put 0644 root:root "$ZRAM_CONF" <<EOF
# Written by Longhall's install.sh: swap in compressed memory (zram) instead of a file on the SD
# card; --keep-swap-file keeps the file instead.
[zram0]
zram-size = ram / 2
compression-algorithm = zstd
EOF
        # Raspberry Pi OS's swap file (/var/swap) wrote to the card whenever memory ran short
        run_if "[ -e /lib/systemd/system/dphys-swapfile.service ]" systemctl disable $NOW dphys-swapfile.service
        run_if "[ -f /var/swap ] && [ -x /sbin/dphys-swapfile ]" dphys-swapfile uninstall
    fi
else
    run_if "[ -e $ZRAM_CONF ] && grep -q Longhall $ZRAM_CONF" rm -f "$ZRAM_CONF"
    run_if "[ -e /lib/systemd/system/dphys-swapfile.service ]" systemctl enable dphys-swapfile.service
fi

say "Starting"
if [ "$NO_START" = 1 ]; then
    # an image being built, or the first boot: the units start with the next boot
    [ "$HOTSPOT" = 0 ] || run systemctl enable longhall-port80.service
    run systemctl enable longhall.service longhall-firstboot.service
    [ "$KIOSK_ON" = 0 ] || run systemctl enable longhall-kiosk.service
else
    if [ "$HOTSPOT" = 1 ]; then
        run systemctl daemon-reload
        run systemctl enable longhall-port80.service
        run systemctl restart longhall-port80.service
    fi
    run systemctl enable longhall.service longhall-firstboot.service
    if [ "$KIOSK_ON" = 1 ]; then
        run systemctl enable longhall-kiosk.service
    fi
    # the table on the release just installed; back to the one before if it does not answer
    restart_and_check "$WAS"
fi
# Longhall as earlier installs left it, in the prefix itself: the units point at $CURRENT now
if [ -f "$PREFIX/.venv/.longhall-installed" ]; then
    for old in .venv server hardware phone_ui table_display systemd docs tests bench pyproject.toml \
        setup.py requirements.lock requirements-tests.lock run README.md; do
        run rm -rf "${PREFIX:?}/$old"
    done
fi
prune_releases

timings
say "Done"
cat <<EOF
The server runs as longhall.service on $(readlink "$CURRENT" 2>/dev/null || echo "the new release");
its game store is /var/lib/longhall/longhall.sqlite3.
  status:   systemctl status longhall longhall-kiosk
  logs:     journalctl -u longhall -u longhall-kiosk -b
  health:   curl http://127.0.0.1:$PORT/healthz
EOF
if [ "$HOTSPOT" = 1 ]; then
    echo "Phones join the Wi-Fi \"$SSID\", then http://$HOTSPOT_ADDRESS:$PORT/ (the QR codes show both)."
    [ "$GENERATED" = 0 ] || echo "Its password, made now: $PASSWORD (the table display shows it too)."
    [ -n "$NAME" ] && echo "On the hotspot the table is also http://$NAME/ (and http://$NAME.lan/)."
    [ "$SSH_ON_HOTSPOT" = 1 ] || echo "SSH is closed to the hotspot (--ssh-on-hotspot opens it)."
fi
[ -z "$KIOSK_NOTE" ] || echo "$KIOSK_NOTE"
if [ "$UPDATE" = 1 ]; then
    echo "Updated; the server was restarted with the new code."
elif [ "$NO_START" = 0 ] && { [ "$KIOSK_ON" = 1 ] || [ "$HOTSPOT" = 1 ]; }; then
    echo "Reboot now (sudo reboot): the Pi starts in the table display${SSID:+ with its own Wi-Fi}."
fi
