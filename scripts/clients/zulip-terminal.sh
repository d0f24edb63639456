#!/usr/bin/env bash
# Drives a whole zulip-terminal session against a Parley server started from this checkout, in
# tmux (send-keys / capture-pane), and fails on anything a user would see go wrong: an error popup,
# an entry in zulip-terminal's thread-exception log, an API request answered with an error, or a
# step whose result does not appear on screen or on the server.
#
# Nothing is downloaded. Bring the sources yourself and say where they are:
#   ZT_SRC               zulip/zulip-terminal checkout          (default $CLIENTS_SRC/zulip-terminal)
#   ZULIP_API_SRC        zulip/python-zulip-api checkout        (default $CLIENTS_SRC/python-zulip-api)
#   URWID_READLINE_SRC   rr-/urwid_readline checkout            (default $CLIENTS_SRC/urwid_readline)
#   CLIENTS_SRC          where the three are                    (default /work/clients-src)
# Python packages from Debian:
#   apt-get install -y tmux python3-urwid python3-requests python3-bs4 python3-lxml python3-pygments \
#     python3-dateutil python3-tz python3-tzlocal python3-pyperclip python3-typing-extensions python3-distro
# Other settings: PYTHON (default /usr/bin/python3: Debian's, where those packages are), PORT
# (default 9793), KEEP=1 leaves the work directory (server log, screens, zulip-terminal's logs).
#
# Usage: scripts/clients/zulip-terminal.sh        (from anywhere; run `npm ci` in the checkout first)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CLIENTS_SRC="${CLIENTS_SRC:-/work/clients-src}"
ZT_SRC="${ZT_SRC:-$CLIENTS_SRC/zulip-terminal}"
ZULIP_API_SRC="${ZULIP_API_SRC:-$CLIENTS_SRC/python-zulip-api}"
URWID_READLINE_SRC="${URWID_READLINE_SRC:-$CLIENTS_SRC/urwid_readline}"
PYTHON="${PYTHON:-/usr/bin/python3}"
PORT="${PORT:-9793}"
SITE="http://localhost:$PORT"
API="$SITE/api/v1"
WORK="$(mktemp -d /tmp/parley-zulip-terminal.XXXXXX)"
TMUX_SOCKET="parley-zt-$$"
SESSION=zt
SERVER_PID=""
STEP=0

export PYTHONPATH="$ZT_SRC:$ZULIP_API_SRC/zulip:$URWID_READLINE_SRC"

cleanup() {
  tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
  # The server runs in its own process group (npx, tsx and node): end them all.
  if [ -n "$SERVER_PID" ]; then kill -- "-$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

log() { printf '%s\n' "$*" >&2; }
fail() {
  log "FAIL: $*"
  log "---- screen ----"; screen || true
  log "---- zulip-terminal API log (last 15) ----"; tail -15 "$WORK/zulip-terminal-API-requests.log" 2>/dev/null || true
  log "---- thread exceptions ----"; cat "$WORK/zulip-terminal-thread-exceptions.log" 2>/dev/null || true
  log "---- server log (last 15) ----"; tail -15 "$WORK/server.log" || true
  exit 1
}
step() { STEP=$((STEP + 1)); log "[$STEP] $*"; }
pass() { log "    ok: $*"; }

# ---- the terminal ----
screen() { tmux -L "$TMUX_SOCKET" capture-pane -p -t "$SESSION"; }
press() { tmux -L "$TMUX_SOCKET" send-keys -t "$SESSION" "$@"; sleep 0.4; }
type_text() { tmux -L "$TMUX_SOCKET" send-keys -t "$SESSION" -l "$1"; sleep 0.4; }
# Zulip-terminal shows errors it cannot recover from in a popup titled EXCEPTION or NOTICE.
check_no_popup() {
  local s; s="$(screen)"
  if grep -qE 'An exception occurred|EXCEPTION|NOTICE' <<<"$s"; then fail "an error popup is on screen"; fi
  if [ -s "$WORK/zulip-terminal-thread-exceptions.log" ]; then fail "zulip-terminal logged a thread exception"; fi
}
# Waits until the screen shows the (extended) regular expression, at most $2 seconds.
wait_for() {
  local pattern="$1" timeout="${2:-15}" waited=0
  while ! screen | grep -qE -- "$pattern"; do
    check_no_popup
    sleep 0.5; waited=$((waited + 1))
    if [ "$waited" -ge $((timeout * 2)) ]; then fail "the screen never showed /$pattern/"; fi
  done
  check_no_popup
}
wait_gone() {
  local pattern="$1" timeout="${2:-15}" waited=0
  while screen | grep -qE -- "$pattern"; do
    sleep 0.5; waited=$((waited + 1))
    if [ "$waited" -ge $((timeout * 2)) ]; then fail "the screen still shows /$pattern/"; fi
  done
  check_no_popup
}

# ---- the server, as another user would talk to it ----
json() { "$PYTHON" -c "import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {}, {'d': d}))" "$1"; }
call() { # call <user:key> <METHOD> <path> [curl args...]: prints the body, fails on an error result
  local auth="$1" method="$2" path="$3"; shift 3
  local body; body="$(curl -sS -u "$auth" -X "$method" "$API$path" "$@")"
  if [ "$(json "d['result']" <<<"$body")" != success ]; then fail "$method $path: $body"; fi
  printf '%s' "$body"
}

# ---- preflight ----
for dir in "$ZT_SRC/zulipterminal" "$ZULIP_API_SRC/zulip/zulip" "$URWID_READLINE_SRC/urwid_readline"; do
  [ -d "$dir" ] || { log "missing $dir (see the header of this script)"; exit 2; }
done
command -v tmux >/dev/null || { log "tmux is not installed"; exit 2; }
"$PYTHON" -c 'import urwid, urwid_readline, zulip, zulipterminal.cli.run' \
  || { log "zulip-terminal cannot be imported with $PYTHON (see the header of this script)"; exit 2; }

step "start Parley (PGlite in $WORK/data, port $PORT)"
if curl -s "$API/server_settings" >/dev/null 2>&1; then log "port $PORT is taken (set PORT)"; exit 2; fi
(cd "$REPO" && PORT="$PORT" PARLEY_DATA_DIR="$WORK/data" PARLEY_ADMIN_EMAIL=admin@parley.local \
  PARLEY_ADMIN_PASSWORD=admin-password PARLEY_HEARTBEAT_SECS=20 PARLEY_LOG_REQUESTS=1 \
  exec setsid npx tsx main.ts) >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 120); do curl -sf "$API/server_settings" >/dev/null 2>&1 && break; sleep 1; done
curl -sf "$API/server_settings" >/dev/null || fail "Parley did not start"
pass "$(json "d['zulip_version'] + ' feature level ' + str(d['zulip_feature_level'])" < <(curl -s "$API/server_settings"))"

step "set up an organization: a second user, a channel with history, a direct message"
ADMIN_KEY="$(curl -s "$API/fetch_api_key" -d username=admin@parley.local -d password=admin-password | json "d['api_key']")"
ADMIN="admin@parley.local:$ADMIN_KEY"
call "$ADMIN" POST /users -d email=bob@parley.local -d password=bob-password -d "full_name=Bob Builder" >/dev/null
BOB_KEY="$(curl -s "$API/fetch_api_key" -d username=bob@parley.local -d password=bob-password | json "d['api_key']")"
BOB="bob@parley.local:$BOB_KEY"
ADMIN_ID="$(call "$ADMIN" GET /users/me | json "d['user_id']")"
BOB_ID="$(call "$BOB" GET /users/me | json "d['user_id']")"
call "$ADMIN" POST /users/me/subscriptions -d 'subscriptions=[{"name":"design","description":"Colours and fonts"}]' \
  --data-urlencode "principals=[$ADMIN_ID,$BOB_ID]" >/dev/null
for i in 1 2 3; do call "$BOB" POST /messages -d type=stream -d to=design -d topic=colours -d "content=colour idea $i" >/dev/null; done
call "$BOB" POST /messages -d type=stream -d to=design -d topic=fonts -d "content=serif or sans?" >/dev/null
call "$BOB" POST /messages -d type=private -d "to=[$ADMIN_ID]" -d "content=hi admin, welcome" >/dev/null
printf '[api]\nemail=admin@parley.local\nkey=%s\nsite=%s\n' "$ADMIN_KEY" "$SITE" >"$WORK/zuliprc"
chmod 600 "$WORK/zuliprc"
pass "bob is user $BOB_ID; #design has topics colours and fonts"

step "load: zulip-terminal starts (register, GET /messages with use_first_unread_anchor)"
tmux -L "$TMUX_SOCKET" new-session -d -s "$SESSION" -x 200 -y 50 \
  "cd '$WORK' && '$PYTHON' -m zulipterminal.cli.run -d -c '$WORK/zuliprc' --no-notify --no-autohide -t zt_dark 2>'$WORK/stderr.log'; echo ZULIP-TERMINAL-EXITED; sleep 3600"
wait_for 'Administrator \(admin@parley.local\) - Parley' 60
wait_for 'hi admin, welcome' 20
wait_for '# design' 5
pass "all messages, the channel list and the unread direct message are shown"

step "open a channel"
press q; type_text design; press Enter; press Enter
wait_for 'colour idea 3' 15
wait_for 'serif or sans' 5
pass "#design shows its history"

step "open a topic (the topic list of #design)"
press Escape; press a; wait_for 'hi admin, welcome' 10
press h; press q; press C-u; type_text design; press Enter; press t
wait_for 'fonts' 10
press Enter
wait_for 'design ▶ +fonts' 10
if screen | grep -q 'colour idea 1'; then fail "the fonts topic shows messages of another topic"; fi
pass "the fonts topic shows only its own messages"

step "send to a channel"
# From the topic, `s` opens its channel; `c` composes to the channel on screen.
press s
wait_for 'colour idea 3' 10
press c; press Tab; type_text colours; press Tab; type_text 'hello from the terminal'
press C-d
wait_for '▒ hello from the terminal' 10
press Escape
SENT_ID="$(call "$BOB" GET /messages -G -d anchor=newest -d num_before=1 -d num_after=0 \
  --data-urlencode 'narrow=[{"operator":"channel","operand":"design"},{"operator":"topic","operand":"colours"}]' \
  | json "[m['id'] for m in d['messages'] if m['content'] == '<p>hello from the terminal</p>'][0]")"
pass "message $SENT_ID reached bob's view of #design > colours"

step "receive a live message from another user"
call "$BOB" POST /messages -d type=stream -d to=design -d topic=colours -d 'content=bob says this live' >/dev/null
wait_for 'bob says this live' 15
pass "it appeared without reloading"

step "reactions added and removed by another user"
call "$BOB" POST "/messages/$SENT_ID/reactions" -d emoji_name=octopus >/dev/null
wait_for ':octopus: Bob Builder' 15
call "$BOB" DELETE "/messages/$SENT_ID/reactions" -d emoji_name=octopus >/dev/null
wait_gone ':octopus:' 15
pass "the reaction row appeared and went away"

step "edit a message"
press G; press k; press e
wait_for 'Also change later messages' 10
type_text ' (edited)'
press C-d
wait_for 'hello from the terminal \(edited\)' 15
RAW="$(call "$BOB" GET "/messages/$SENT_ID" | json "d['raw_content']")"
[ "$RAW" = 'hello from the terminal (edited)' ] || fail "the server has '$RAW'"
pass "the edit is shown and stored"

step "edit history"
press i
wait_for 'Edit History' 10
press e
wait_for 'Edit History \(up/down scrolls\)' 10
wait_for 'hello from the terminal' 5
press Escape; press Escape
pass "the edit history popup lists the original content"

step "a direct message"
press Escape; press P
wait_for 'You and Bob Builder' 10
press x; type_text 'Bob Builder <bob@parley.local>'; press Tab; type_text 'a direct hello from the terminal'
press C-d
wait_for '▒ a direct hello from the terminal' 10
press Escape
call "$BOB" GET /messages -G -d anchor=newest -d num_before=1 -d num_after=0 \
  --data-urlencode "narrow=[{\"operator\":\"dm\",\"operand\":[$ADMIN_ID]}]" \
  | json "d['messages'][0]['content']" | grep -q 'a direct hello from the terminal' || fail "bob did not get the direct message"
call "$BOB" POST /messages -d type=private -d "to=[$ADMIN_ID]" -d 'content=bob answers directly' >/dev/null
wait_for 'bob answers directly' 15
pass "sent, delivered, and the answer arrived live"

step "search"
press Escape; press a; wait_for 'hi admin, welcome' 10
press /; press C-u; type_text 'live'; press Enter
wait_for 'bob says this live' 10
if screen | grep -q 'hi admin, welcome'; then fail "the search shows messages that do not match"; fi
pass "searching for 'live' finds bob's live message only"

step "mark read (zulip-terminal marks a message read when it has the focus)"
press s
wait_for 'colour idea 1' 10
for _ in 1 2 3 4 5 6 7 8; do press k; done
press P; wait_for 'bob answers directly' 10; press G; press k; press j
wait_gone 'All messages +\[a\] +[0-9]' 15
UNREAD="$(call "$ADMIN" GET /messages -G -d anchor=newest -d num_before=50 -d num_after=0 \
  --data-urlencode 'narrow=[{"operator":"is","operand":"unread"}]' | json "len(d['messages'])")"
[ "$UNREAD" = 0 ] || fail "$UNREAD messages the terminal showed are still unread"
pass "every message the terminal showed is read on the server"

step "channel information (GET /streams/{id}/email_address)"
press Escape; press a; wait_for 'hi admin, welcome' 10
press h
# The left panel still lists #design's topics (from "open a topic"): `t` on a topic goes back to the channels.
if screen | grep -q '━ Topics ━'; then press t; wait_for '━ Streams ━' 10; fi
press q; press C-u; type_text design; press Enter; press i
wait_for 'to copy Stream email address' 10
if screen | grep -q 'Stream email is unavailable'; then fail "the channel's email address is unavailable"; fi
press Escape
wait_gone 'to copy Stream email address' 10
pass "the channel information popup shows the channel's email address"

step "quit"
press Escape; press Escape
check_no_popup
tmux -L "$TMUX_SOCKET" send-keys -t "$SESSION" C-c
wait_for 'Please confirm that you wish to exit' 10
press Enter   # the focused button is Yes
wait_for 'ZULIP-TERMINAL-EXITED' 20

# Every API error zulip-terminal met.
ERRORS="$(grep -E '" [45][0-9][0-9] ' "$WORK/zulip-terminal-API-requests.log" || true)"
[ -z "$ERRORS" ] || fail "zulip-terminal met API errors:
$ERRORS"
[ ! -s "$WORK/zulip-terminal-thread-exceptions.log" ] || fail "zulip-terminal logged thread exceptions"
[ ! -s "$WORK/zulip-terminal-tracebacks.log" ] || fail "zulip-terminal crashed"
if grep -q 'Unexpected error\|Error:' "$WORK/server.log"; then fail "the server logged an error"; fi
log "PASS: a whole zulip-terminal session ($STEP steps) against Parley, $(grep -c '" [0-9][0-9][0-9] ' "$WORK/zulip-terminal-API-requests.log") API requests, no error popup, no thread exception"
