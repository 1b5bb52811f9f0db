# bash completion for kepoch
_kepoch() {
  local cur prev words cword
  _init_completion || return
  case "$prev" in
    -o|--output) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")); return ;;
    --kind) COMPREPLY=($(compgen -W "leader-epoch offsets recovery-point log-start-offset replication-offset cleaner-offset partition-metadata meta-properties" -- "$cur")); return ;;
  esac
  local group="" sub=""
  local i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -*) ;;
      *) if [[ -z $group ]]; then group=${words[i]}; elif [[ -z $sub ]]; then sub=${words[i]}; fi ;;
    esac
  done
  if [[ -z $group ]]; then
    COMPREPLY=($(compgen -W "checkpoint --help --version -o --output --no-color" -- "$cur"))
  elif [[ $group == checkpoint && -z $sub ]]; then
    COMPREPLY=($(compgen -W "dump validate --help" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "--kind --strict -o --output --no-color --help" -- "$cur"))
  else
    _filedir
  fi
}
complete -F _kepoch kepoch
