#!/usr/bin/env bash
# Fails when an irregularity ruling (engine/irregularities*.cc,
# engine/irregularity_table.cc, engine/misdeal.cc) changes the hand state
# itself instead of through the table operations of engine/table_ops.h: the
# rulings are a floor above the core, and every change they make to a hand is
# a named, logged table event.
#
# What counts as a write, on a line whose // comment is removed, where the
# state is a variable named st, state, work or scratch (the names the ruling
# files give a HandState):
#   * an assignment, compound assignment, ++ or -- on a path from it
#     (st.x = , st.seats[i].y += , ++st.z, st = other);
#   * a mutating call on such a path (st.log.push_back(..), st.seen.Add(..),
#     .clear, .insert, .erase, .resize, .emplace_back, .pop_back, .assign,
#     .swap, .fill, .Remove);
#   * a non-const reference or pointer into the hand (Seat& s = ..,
#     SeatCard& c = .., Operation* op = ..): what would let the lines above
#     write under another name.
# A scratch copy (HandState scratch = st;) is a new hand, not a write; what
# is done to it is checked like the rest.
# Limits: it reads text, not types. It does not see a write through a
# HandState variable given another name, through a helper defined in these
# files that takes one under another name, through a macro, or an expression
# split over lines; and a local of one of those names that is not a
# HandState would be flagged. Reading is never flagged.
set -u
dir="${1:?engine dir}"
files=("$dir"/irregularities*.cc "$dir"/irregularity_table.cc "$dir"/misdeal.cc)
root='(^|[^A-Za-z0-9_.>:])(st|state|work|scratch)'
path='(\.[A-Za-z_][A-Za-z0-9_]*|\[[^]]*\])*'
assign="${root}${path} *(=[^=]|\+=|-=|\*=|/=|%=|\|=|&=|\^=|<<=|>>=|\+\+|--)"
prefix="(\+\+|--) *(st|state|work|scratch)\b"
calls="${root}${path}\.(push_back|emplace_back|pop_back|insert|erase|clear|resize|assign|swap|fill|Add|Remove) *\("
alias='(^|[^A-Za-z0-9_])(Seat|SeatCard|HandState|Operation|IrregularityReport|Pot) *[&*] *[A-Za-z_][A-Za-z0-9_]* *='
bad=""
for f in "${files[@]}"; do
  [ -e "$f" ] || continue
  hits=$(sed -E 's#//.*$##' "$f" | grep -nE "$assign|$prefix|$calls|$alias" |
    grep -vE '(^|[^A-Za-z0-9_])const +(::)?(stud::)?[A-Za-z_:]+ *[&*]' |
    grep -vE '^[0-9]+: *HandState +[A-Za-z_]+ *= *[A-Za-z_]+;')
  [ -n "$hits" ] && bad+=$(sed "s#^#${f#"$dir"/}:#" <<<"$hits")$'\n'
done
if [ -n "$bad" ]; then
  echo "a ruling writes the hand state directly; add or use a table operation (engine/table_ops.h):"
  printf '%s' "$bad"
  exit 1
fi
echo "the rulings change a hand only through the table operations of engine/table_ops.h"
