#!/usr/bin/env bash
# Package.cli-docs: the man page and bash completion follow the CLI. Reads every subcommand and
# option name from CLI11's own --help output (an independent rendering of the same
# definitions) and requires each in the generated man page (in its command's section) and
# completion (in its command's case), and requires the build's files to equal a fresh
# generation. With a man page or completion missing one flag it must fail: the second half
# checks copies with --minbytes removed.
#   cli_docs_test.sh EXE MAN_PAGE COMPLETION
# Exit 0: all follow; 1: the first difference, in one line.
set -euo pipefail
exe="$1" man_page="$2" completion="$3"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "cli-docs: $*" >&2; exit 1; }

# "-b,--minbytes SIZE=8  text" -> "-b --minbytes": the option names of a --help's Options section.
option_names() {
  awk '/^Options:/ { on = 1; next } /^[^ ]/ { on = 0 } on && /^  -/ { print $1 }' | tr ',' '\n' |
    sed 's/=.*//' | grep -E '^--?[A-Za-z0-9_-]+$' || true
}
subcommands() {
  "$exe" --help | awk '/^Subcommands:/ { on = 1; next } /^[^ ]/ || /^$/ { on = 0 } on { print $1 }'
}

# check MAN COMPLETION: prints the first thing missing; returns 1 then.
check() {
  local man="$1" comp="$2" cmd name section arm
  for name in $("$exe" --help | option_names); do
    grep -qF "\\fB${name//-/\\-}\\fR" "$man" || { echo "collbench $name is not in the man page"; return 1; }
  done
  for cmd in $(subcommands); do
    section="$(awk -v c=".SS $cmd" '$0 == c { on = 1; next } /^\.S[SH] / { on = 0 } on' "$man")"
    [ -n "$section" ] || { echo "no section for $cmd in the man page"; return 1; }
    arm="$(grep -E "^    $cmd\) opts=" "$comp" || true)"
    [ -n "$arm" ] || { echo "no completion case for $cmd"; return 1; }
    grep -qE "^  local commands='([^']* )?$cmd( [^']*)?'" "$comp" || { echo "$cmd is not completed as a command"; return 1; }
    for name in $("$exe" "$cmd" --help | option_names); do
      grep -qF "\\fB${name//-/\\-}\\fR" <<<"$section" || { echo "collbench $cmd $name is not in the man page"; return 1; }
      grep -qE "[' ]${name}[' ]" <<<"${arm%%; valued=*}" || { echo "collbench $cmd $name is not completed"; return 1; }
    done
  done
}

"$exe" --help-man >"$scratch/fresh.1"
"$exe" --completion bash >"$scratch/fresh.bash"
cmp -s "$scratch/fresh.1" "$man_page" || fail "$man_page differs from a fresh \`collbench --help-man\` (rebuild)"
cmp -s "$scratch/fresh.bash" "$completion" || fail "$completion differs from a fresh \`collbench --completion bash\`"
if [ -f "$man_page.gz" ]; then
  gzip -dc "$man_page.gz" | cmp -s - "$man_page" || fail "$man_page.gz is not $man_page compressed"
fi
why="$(check "$man_page" "$completion")" || fail "$why"

# The man page renders without a warning (lintian would report them too).
if command -v man >/dev/null; then
  warnings="$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man_page" 2>&1 >/dev/null || true)"
  [ -z "$warnings" ] || fail "man reports: $(head -1 <<<"$warnings")"
fi

# The completion completes: commands, then a command's options.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _collbench; echo "${COMPREPLY[*]}"' \
    _ "$completion" "$@"
}
[[ " $(complete_words collbench ru) " == *" run "* ]] || fail "collbench ru<TAB> does not offer run"
[[ " $(complete_words collbench run --minb) " == *" --minbytes "* ]] || fail "collbench run --minb<TAB> does not offer --minbytes"
[[ " $(complete_words all_reduce_perf --maxb) " == *" --maxbytes "* ]] || fail "all_reduce_perf --maxb<TAB> does not offer --maxbytes"
[ -z "$(complete_words collbench run -J "")" ] || fail "collbench run -J <TAB> offers words instead of file names"

# A flag left out of either file must be found.
grep -vF '\fB\-\-minbytes\fR' "$man_page" >"$scratch/short.1"
sed 's/ --minbytes / /' "$completion" >"$scratch/short.bash"
check "$scratch/short.1" "$completion" >/dev/null && fail "a man page without --minbytes passed the check"
check "$man_page" "$scratch/short.bash" >/dev/null && fail "a completion without --minbytes passed the check"
echo "cli-docs: $(subcommands | wc -l) commands, every option in the man page and the completion"
