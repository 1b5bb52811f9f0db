# bash completion for kepoch
_kepoch() {
  local cur prev words cword
  _init_completion || return
  case "$prev" in
    -o|--output) COMPREPLY=($(compgen -W "table json yaml jsonl" -- "$cur")); return ;;
    --kind)
      if [[ " ${words[*]} " == *" segment "* ]]; then
        COMPREPLY=($(compgen -W "log index timeindex txnindex snapshot" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "leader-epoch offsets recovery-point log-start-offset replication-offset cleaner-offset partition-metadata meta-properties" -- "$cur"))
      fi
      return ;;
    --mode) COMPREPLY=($(compgen -W "fetch ofle hw all" -- "$cur")); return ;;
    --rule) COMPREPLY=($(compgen -W "epoch hw both" -- "$cur")); return ;;
    --data-format) COMPREPLY=($(compgen -W "text hex base64" -- "$cur")); return ;;
    --leader|--file) _filedir; return ;;
    --metadata) _filedir -d; return ;;
    --max-batches|--from-offset|--base-offset|-j|--jobs|--window|--topic|--partition) return ;;
  esac
  local group="" sub="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -o|--output|--kind|--mode|--rule|--data-format|--leader|--max-batches|--from-offset|--base-offset|--file|--window|--topic|--partition|--metadata|--ids|--replicas|--isr|--elr|--alive|--min-isr) ((i++)) ;;
      -*) ;;
      *) if [[ -z $group ]]; then group=${words[i]}; elif [[ -z $sub ]]; then sub=${words[i]}; fi ;;
    esac
  done
  local common="-o --output --no-color --help"
  if [[ -z $group ]]; then
    COMPREPLY=($(compgen -W "checkpoint segment partition logdir diff predict simulate metadata --help --version $common" -- "$cur"))
    return
  fi
  case "$group" in
    checkpoint)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "dump validate --help" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--kind --strict $common" -- "$cur"))
      else _filedir; fi ;;
    segment)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "dump --help" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--records --data --data-format --max-batches --from-offset --kind --base-offset $common" -- "$cur"))
      else _filedir; fi ;;
    partition)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "inspect verify --help" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$common" -- "$cur"))
      else _filedir -d; fi ;;
    logdir)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "scan snapshot --help" -- "$cur"))
      elif [[ $cur == -* && $sub == snapshot ]]; then COMPREPLY=($(compgen -W "--file --window $common" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--all -j --jobs $common" -- "$cur"))
      else _filedir -d; fi ;;
    diff)
      # replica dirs, log dirs or snapshot files
      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--metadata $common" -- "$cur"))
      else _filedir; fi ;;
    predict)
      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--leader --mode --elect --ids --replicas --isr --elr --alive --unclean --preferred --min-isr $common" -- "$cur"))
      else _filedir; fi ;;
    metadata)
      if [[ -z $sub ]]; then COMPREPLY=($(compgen -W "dump history --help" -- "$cur"))
      elif [[ $cur == -* && $sub == history ]]; then COMPREPLY=($(compgen -W "--topic --partition $common" -- "$cur"))
      elif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$common" -- "$cur"))
      else _filedir; fi ;;
    simulate)
      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--rule $common" -- "$cur"))
      else _filedir '@(yaml|yml)'; fi ;;
  esac
}
complete -F _kepoch kepoch
