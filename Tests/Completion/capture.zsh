#!/usr/bin/env zsh
# Prints what zsh's completion offers for command lines, with the completion function
# _kanban from directory DIR:
#
#     zsh -f capture.zsh DIR LINE…
#
# For each LINE: a line "### LINE", then one line per candidate, "CANDIDATE" or
# "CANDIDATE -- DESCRIPTION" (the candidate as zsh would insert it, quoted; for
# _describe, the description is the display string). It runs an interactive zsh in a
# pseudo-terminal (zpty), types each line and a Tab, and has compadd, through which every
# completion passes, print what it is given. Exit 3: no zsh/zpty; 4: the shell did not start.
zmodload zsh/zpty || exit 3
dir=$1
shift
zpty z zsh -f -i
zpty -w z "PROMPT=''; RPROMPT=''; PS2=''; unsetopt zle_bracketed_paste list_beep 2>/dev/null; LISTMAX=1000000"
zpty -w z "fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a hits descriptions; local d i
  if (( $@[(I)-d] )); then
    d=${@[$[${@[(i)-d]}+1]]}
    if [[ $d == \(* ]]; then eval "descriptions=$d"; else descriptions=("${(@P)d}"); fi
  fi
  builtin compadd -A hits -D descriptions "$@"
  for (( i = 1; i <= $#hits; i++ )); do
    print -r -- "<<$IPREFIX$hits[$i]>>${descriptions[$i]:+ -- $descriptions[$i]}"
  done
}'
# Tab completes, then says it is done; typing on meanwhile would be thrown away.
zpty -w z '_capture_tab() { zle complete-word; print -r -- "<<DONE$(( 40 + 2 ))>>" }'
zpty -w z "zle -N _capture_tab; bindkey '^I' _capture_tab; print -r -- READY\$(( 40 + 2 ))"
zpty -r z line '*READY42*' || exit 4
for command_line in "$@"; do
  print -r -- "### $command_line"
  zpty -w -n z "$command_line"$'\t'
  out=''
  while zpty -r z line; do
    [[ $line == *'<<DONE42>>'* ]] && break
    out+=$line
  done
  zpty -w -n z $'\C-E\C-U'
  print -r -- "$out" | tr -d '\r' | grep -o '<<[^>]*>>[^<]*' | sed -e 's/^<<//' -e 's/>>//' -e 's/ *$//' | sort -u
done
zpty -d z
