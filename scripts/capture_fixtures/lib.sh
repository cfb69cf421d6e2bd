# shellcheck shell=bash
# Shared helpers for the capture_fixtures/*.sh scripts; each one sources it with
#   . "$(dirname "$0")/lib.sh"
# right after `set -euo pipefail`. Sourcing it only defines the variables and functions below;
# nothing is installed, created or deleted until a script calls them.
#
# Variables
#   repo        the repository's top folder
#   stack_logs  $repo/tests/fixtures/stack-logs, where every runner's fixture folder lives
#   tty_size    capture_tty/run_tty: "COLSxROWS" runs `stty cols COLS rows ROWS; ` inside the
#               pseudo-terminal before CMD; "" (the default) leaves the terminal at script(1)'s size
#   tty_stderr  capture_tty/run_tty: where script(1)'s own stderr goes: "console" (the default)
#               or "file" (into FILE with the terminal's output)
#   A script that wants other values sets them after sourcing this file.
#
# Functions
#   apt_install MODE PKG...      apt-get install -y --no-install-recommends PKG..., waiting up to
#                                600 s for the dpkg lock, after an apt-get update. MODE:
#                                  shown    DEBIAN_FRONTEND=noninteractive (exported); apt's output shown
#                                  quiet    the same, with `update -q`; apt's output dropped
#                                  if-root  only where apt-get exists and we are root; DEBIAN_FRONTEND
#                                           left alone; `update -qq` (its failure ignored); install's
#                                           output dropped
#   make_work PREFIX             sets $work to a fresh `mktemp -d /tmp/PREFIX.XXXXXX` folder and
#                                removes it on exit (trap ... EXIT; a script may set its own trap after)
#   fresh_dir DIR...             mkdir -p each DIR and delete its *.log and *.xml (other files such as
#                                README.md and expected.json are kept)
#   fresh_json DIR...            mkdir -p each DIR and delete its *.json but expected.json
#   capture FILE CMD...          CMD's stdout+stderr, as piped, into FILE; stdin is inherited
#   capture_tty FILE "CMD"       the shell command CMD under a pseudo-terminal (script -q -e -c,
#                                TERM=xterm-256color, stdin from /dev/null), its output into FILE;
#                                see tty_size and tty_stderr
#   capture_stdout [--drop-empty] FILE CMD...
#                                CMD's stdout only into FILE (stderr dropped); with --drop-empty an
#                                empty FILE is deleted again
#   run_piped FILE DIR CMD...    capture, run in DIR with stdin from /dev/null
#   run_tty FILE DIR "CMD"       capture_tty, run in DIR
#                                (for both: FILE an absolute path, DIR an existing folder)
#   report FILE RC               prints the progress line "  <name of FILE>: exit RC"
# None of the capture/run functions fails on CMD's exit code: it is only reported.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC2034 # used by the scripts that source this file
stack_logs="$repo/tests/fixtures/stack-logs"

tty_size=""
tty_stderr=console

apt_install() {
  local mode=$1
  shift
  case $mode in
    shown)
      export DEBIAN_FRONTEND=noninteractive
      apt-get update
      apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@"
      ;;
    quiet)
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q >/dev/null
      apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@" >/dev/null
      ;;
    if-root)
      if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get -o DPkg::Lock::Timeout=600 update -qq || true
        apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@" >/dev/null
      fi
      ;;
    *)
      echo "apt_install: unknown mode '$mode' (shown, quiet or if-root)" >&2
      return 2
      ;;
  esac
}

make_work() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

fresh_dir() {
  local dir
  for dir in "$@"; do
    mkdir -p "$dir"
    rm -f "$dir"/*.log "$dir"/*.xml
  done
}

fresh_json() {
  local dir file
  for dir in "$@"; do
    mkdir -p "$dir"
    for file in "$dir"/*.json; do
      if [ -f "$file" ] && [ "$(basename "$file")" != expected.json ]; then rm -f "$file"; fi
    done
  done
}

report() {
  echo "  $(basename "$1"): exit $2"
}

capture() {
  local file=$1 rc=0
  shift
  "$@" >"$file" 2>&1 || rc=$?
  report "$file" "$rc"
}

capture_tty() {
  local file=$1 cmd=$2 rc=0
  if [ -n "$tty_size" ]; then
    cmd="stty cols ${tty_size%x*} rows ${tty_size#*x}; $cmd"
  fi
  case $tty_stderr in
    console) TERM=xterm-256color script -q -e -c "$cmd" /dev/null </dev/null >"$file" || rc=$? ;;
    file) TERM=xterm-256color script -q -e -c "$cmd" /dev/null </dev/null >"$file" 2>&1 || rc=$? ;;
    *)
      echo "capture_tty: tty_stderr is '$tty_stderr' (console or file)" >&2
      return 2
      ;;
  esac
  report "$file" "$rc"
}

capture_stdout() {
  local drop_empty=false
  if [ "$1" = --drop-empty ]; then
    drop_empty=true
    shift
  fi
  local file=$1 rc=0
  shift
  "$@" >"$file" 2>/dev/null || rc=$?
  if [ "$drop_empty" = true ] && [ ! -s "$file" ]; then
    rm -f "$file"
    echo "  no stdout for $(basename "$file") (exit $rc); not kept"
  else
    report "$file" "$rc"
  fi
}

run_piped() {
  local file=$1 dir=$2
  shift 2
  (cd "$dir" && capture "$file" "$@") </dev/null
}

run_tty() {
  (cd "$2" && capture_tty "$1" "$3")
}
