# bash completion for the IMUKit tools. Installed by `make install` and the Debian package as
# one file per tool in bash-completion/completions/; the last line gets the tool list then.
# Options, and what each option's value is, come from the tool's own --help at completion time,
# so they never drift from the tool: FILE -> file names, --simulate NAME -> the simulator's
# scenarios, SPEC -> the --source forms (i2c:/dev/i2c-N@, iio:local:, iio:ip:, sim:NAME).

# The scenario names listed in --help's --simulate line (imu-steps lists them; a tool whose help
# says "names as imu-steps --simulate" gets imu-steps' list).
_imukit_scenarios() {
    local names
    names=$(printf '%s\n' "$1" | sed -n 's/^.*--simulate [A-Z]* .*simulator: \(.*\), or compose.*$/\1/p')
    [ -z "$names" ] && names=$(imu-steps --help 2>/dev/null | sed -n 's/^.*--simulate [A-Z]* .*simulator: \(.*\), or compose.*$/\1/p')
    printf '%s\n' "$names" | tr -d ',' | tr ' ' '\n'
}

_imukit() {
    local cmd=${COMP_WORDS[0]} i=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev=
    # Bash splits words at ':' and '=' (COMP_WORDBREAKS): rejoin "sim" ":" "wa" into "sim:wa",
    # and take "--simulate" "=" "wa" as --simulate's value "wa".
    while [ "$i" -gt 1 ] && { [ "${COMP_WORDS[i]}" = : ] || [ "${COMP_WORDS[i-1]}" = : ]; }; do
        i=$((i - 1)); cur=${COMP_WORDS[i]}$cur
    done
    [ "$cur" = "=" ] && cur=
    [ "$i" -gt 0 ] && prev=${COMP_WORDS[i-1]}
    if [ "$prev" = "=" ] && [ "$i" -gt 1 ]; then prev=${COMP_WORDS[i-2]}; fi
    [ "${COMP_WORDS[i]}" = "=" ] && prev=${COMP_WORDS[i-1]}
    local help
    help=$("$cmd" --help 2>/dev/null) || return 0
    COMPREPLY=()
    local value=
    case $prev in
        --*) value=$(printf '%s\n' "$help" | sed -n "s/^  \(-., \|    \)$prev \([^ ]*\) .*\$/\2/p" | head -n 1) ;;
        -?)  value=$(printf '%s\n' "$help" | sed -n "s/^  $prev, --[A-Za-z0-9-]* \([^ ]*\) .*\$/\1/p" | head -n 1) ;;
    esac
    if [ -n "$value" ]; then
        local long=$prev
        [ "${prev#--}" = "$prev" ] && long=$(printf '%s\n' "$help" | sed -n "s/^  $prev, \(--[A-Za-z0-9-]*\) .*\$/\1/p" | head -n 1)
        case $value in
            FILE)
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
            SPEC)
                local forms=(iio:local: iio:ip:) n d
                for d in /dev/i2c-*; do [ -e "$d" ] && forms+=("i2c:$d@"); done
                for n in $(_imukit_scenarios "$help"); do forms+=("sim:$n"); done
                compopt -o nospace 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -W "${forms[*]}" -- "$cur")
                # Bash replaces only the text after the last ':', so offer just that part.
                local typed=${cur%"${cur##*:}"}
                [ -n "$typed" ] && COMPREPLY=("${COMPREPLY[@]#"$typed"}") ;;
            *)
                if [ "$long" = --simulate ]; then
                    mapfile -t COMPREPLY < <(compgen -W "$(_imukit_scenarios "$help")" -- "$cur")
                fi ;;
        esac
        return 0
    fi
    if [ "${cur#-}" != "$cur" ] || [ -z "$cur" ]; then
        local options
        options=$(printf '%s\n' "$help" | sed -n 's/^  \(-., \|    \)\(--[A-Za-z0-9-]*\).*$/\2/p')
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    fi
    return 0
}

complete -F _imukit @TOOLS@
