/// The completion scripts `kanban completion bash|zsh|fish` prints. Their static parts
/// (commands, board subcommands, each command's options, fixed option values) are written
/// from the command table each time, so they cannot drift from what the parser accepts;
/// what only the kanban file knows (boards, cards, labels), and which operand the cursor
/// is on, they ask `kanban __complete` (``Completer``).
enum CompletionScripts {
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    // MARK: - The table, as completion sees it

    /// A command as typed: its name and aliases (`board add`), its options, its summary.
    struct Entry {
        var names: [String]
        var spec: CommandSpec
        var options: [CommandOption] { spec.options + Options.global }
    }

    static var entries: [Entry] {
        Commands.all.map { Entry(names: [$0.name] + $0.aliases, spec: $0) }
    }

    /// Top-level words: commands, aliases, and groups (`board`), with what each does.
    static var topLevel: [(name: String, summary: String)] {
        Commands.topLevelNames.map { name in
            if CommandGroups.names.contains(name) { return (name, CommandGroups.summary(of: name)) }
            guard let spec = Commands.named(name) else { return (name, "") }
            return (name, spec.name == name ? spec.summary : "alias of \(spec.name)")
        }
    }

    /// The second words of a group's commands, with what each does.
    static func subcommands(of group: String) -> [(name: String, summary: String)] {
        CommandGroups.subcommands(of: group).map { name in
            guard let spec = Commands.named("\(group) \(name)") else { return (name, "") }
            return (name, spec.name == "\(group) \(name)" ? spec.summary : "alias of \(spec.name)")
        }
    }

    /// `board|git`: the groups, as a shell pattern.
    private static var groupPattern: String { CommandGroups.names.joined(separator: "|") }

    /// Every option that takes a value, by every name it has (`--file`, `-f`): a command
    /// line's next word is its value, not an operand.
    static var valueOptionNames: [String] {
        var names: [String] = []
        for spec in Options.all.sorted(by: { $0.name < $1.name }) where spec.takesValue {
            names.append(spec.name)
            if let short = spec.short { names.append("-\(short)") }
        }
        return names
    }

    /// Whether a value of this kind comes from the kanban file (or the command's operands).
    static func isDynamic(_ kind: ArgumentKind) -> Bool {
        switch kind {
        case .board, .item, .archivedItem, .label, .assignee, .command: true
        case .text, .path, .words: false
        }
    }

    /// Whether some operand of the command has something to offer.
    static func hasOperands(_ spec: CommandSpec) -> Bool {
        spec.name == "help" || spec.operandSlots.contains { $0.kinds != [.text] }
    }

    private static var header: String {
        "kanban \(App.version), generated from its command table by 'kanban completion"
    }

    // MARK: - bash

    static func bash() -> String {
        var out = """
            # bash completion for \(header) bash'.
            # Load it from ~/.bashrc:
            #     source <(kanban completion bash)

            _kanban() {
                local IFS=$' \\t\\n' i word glue=0
                # bash splits words at ':' and '=' (COMP_WORDBREAKS); join them again, so that
                # 'Todo:0' and '--to=Done' are one word, as kanban reads them.
                local -a words=()
                for ((i = 1; i <= COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    if ((${#words[@]} > 0)) && [[ $word =~ ^[:=]+$ || ( $glue == 1 && ! ( -z $word && $i == $COMP_CWORD && ${COMP_LINE:COMP_POINT-1:1} == [[:space:]] ) ) ]]; then
                        words[${#words[@]}-1]+=$word
                        [[ $word =~ ^[:=]+$ ]] && glue=1 || glue=0
                    else
                        words+=("$word")
                        glue=0
                    fi
                done
                ((${#words[@]} > 0)) || words=("")
                local cur=${words[${#words[@]}-1]} piece=${COMP_WORDS[COMP_CWORD]}
                [[ $piece =~ ^[:=]+$ ]] && piece=
                local prev=
                ((${#words[@]} > 1)) && prev=${words[${#words[@]}-2]}

                # The command: the first word that is not an option or an option's value.
                local cmd= sub= skip=0 dashdash=0
                for ((i = 0; i < ${#words[@]} - 1; i++)); do
                    word=${words[i]}
                    if ((skip)); then skip=0; continue; fi
                    if ((!dashdash)); then
                        case $word in
                            --) dashdash=1; continue ;;
                            \(valueOptionNames.joined(separator: "|"))) skip=1; continue ;;
                            -?*) continue ;;
                        esac
                    fi
                    if [[ -z $cmd ]]; then cmd=$word
                    elif [[ -z $sub ]]; then
                        case $cmd in \(groupPattern)) sub=$word ;; esac
                    fi
                done
                [[ -n $sub ]] && cmd="$cmd $sub"

                # The value of the option before the cursor.
                if ((!dashdash)) && [[ $prev == -* && $cur != -* ]]; then
                    case "$cmd:$prev" in

            """
        for (pattern, action) in bashValueCases() {
            out += "                \(pattern)) \(action) ;;\n"
        }
        out += """
                    esac
                fi

                if ((!dashdash)) && [[ $cur == -* ]]; then
                    [[ $cur == -?*=* || $cur =~ ^-[^-].+ ]] && { _kanban_ask; return; }
                    local options=
                    case $cmd in

            """
        for entry in entries {
            let names = entry.options.flatMap { option in
                [option.spec.name] + (option.spec.short.map { ["-\($0)"] } ?? [])
            }
            out +=
                "            \(entry.names.map(ShellQuote.word).joined(separator: "|"))) options="
                + ShellQuote.word(names.joined(separator: " ")) + " ;;\n"
        }
        let globalNames = Options.global.flatMap { [$0.spec.name] + ($0.spec.short.map { ["-\($0)"] } ?? []) }
        out += """
                        *) options=\(ShellQuote.word(globalNames.joined(separator: " "))) ;;
                    esac
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                    return
                fi
                case $cmd in
                    '') COMPREPLY=($(compgen -W \(ShellQuote.word(topLevel.map(\.name).joined(separator: " "))) -- "$cur")) ;;

            """
        for group in CommandGroups.names {
            out +=
                "        \(ShellQuote.word(group))) COMPREPLY=($(compgen -W "
                + ShellQuote.word(subcommands(of: group).map(\.name).joined(separator: " ")) + " -- \"$cur\")) ;;\n"
        }
        out += """
                    *) _kanban_ask ;;
                esac
            }

            # Asks kanban what goes here: boards, cards, labels, or file names.
            _kanban_ask() {
                local kanban=${COMP_WORDS[0]/#\\~/$HOME}
                local out
                local -a reply=()
                # Read whole, then split: mapfile from a pipe reads a byte at a time.
                out=$(command "$kanban" __complete bash "$piece" "${words[@]}" 2>/dev/null)
                mapfile -t reply <<< "$out"
                case ${reply[0]} in
                    files) _kanban_files ;;
                    values) COMPREPLY=("${reply[@]:1}") ;;
                esac
            }

            # File names: readline's own completion, which quotes them itself.
            _kanban_files() {
                compopt -o default 2>/dev/null
                COMPREPLY=()
            }

            complete -F _kanban kanban

            """
        return out
    }

    /// `case "$cmd:$prev"` patterns for an option's value: per command where a command
    /// narrows the option's kind, then for any command.
    private static func bashValueCases() -> [(String, String)] {
        func action(_ kind: ArgumentKind) -> String {
            switch kind {
            case .words(let words):
                "COMPREPLY=($(compgen -W \(ShellQuote.word(words.joined(separator: " "))) -- \"$cur\")); return"
            case .path: "_kanban_files; return"
            case .text: "return"
            default: "_kanban_ask; return"
            }
        }
        func names(_ spec: OptionSpec) -> [String] {
            [spec.name] + (spec.short.map { ["-\($0)"] } ?? [])
        }
        var cases: [(String, String)] = []
        for entry in entries {
            for option in entry.spec.options where option.spec.takesValue && option.kind != option.spec.kind {
                let patterns = entry.names.flatMap { name in names(option.spec).map { "\(name):\($0)" } }
                cases.append((patterns.map(ShellQuote.word).joined(separator: "|"), action(option.kind)))
            }
        }
        for spec in Options.all.sorted(by: { $0.name < $1.name }) where spec.takesValue {
            cases.append((names(spec).map { "*:\($0)" }.joined(separator: "|"), action(spec.kind)))
        }
        return cases
    }

    // MARK: - zsh

    static func zsh() -> String {
        var out = """
            #compdef kanban
            # zsh completion for \(header) zsh'.
            # Save it as _kanban in a directory on $fpath, before compinit runs:
            #     mkdir -p ~/.zfunc && kanban completion zsh > ~/.zfunc/_kanban
            #     # in ~/.zshrc: fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit

            _kanban() {
                # The line as typed, for _kanban_ask: _arguments shifts $words as it goes.
                local -a _kanban_line=("${(@)words[1,CURRENT]}")
                local curcontext=$curcontext state state_descr line ret=1
                local -A opt_args
                local -a global=(

            """
        for option in Options.global {
            out += "        " + zshOptionSpec(option) + "\n"
        }
        out += """
                )
                _arguments -C $global \\
                    '1: :->command' \\
                    '*:: :->arguments' && ret=0
                case $state in
                    (command)
                        local -a commands=(

            """
        for (name, summary) in topLevel {
            out += "                    \(ShellQuote.word(zshDescribeEntry(name, summary)))\n"
        }
        out += """
                        )
                        _describe -t commands 'kanban command' commands && ret=0
                        ;;
                    (arguments)
                        local cmd=$words[1]
                        local -a subcommands
                        case $cmd in

            """
        for group in CommandGroups.names {
            out += "                (\(group)) subcommands=(\n"
            for (name, summary) in subcommands(of: group) {
                out += "                    \(ShellQuote.word(zshDescribeEntry(name, summary)))\n"
            }
            out += "                ) ;;\n"
        }
        out += """
                        esac
                        if (( $#subcommands )); then
                            if (( CURRENT == 2 )); then
                                _describe -t commands "$cmd command" subcommands && ret=0
                                return ret
                            fi
                            cmd="$cmd $words[2]"
                            shift words
                            (( CURRENT-- ))
                        fi
                        case $cmd in

            """
        for entry in entries {
            let specs = entry.spec.options.map(zshOptionSpec) + [zshOperandSpec(entry.spec)].compactMap { $0 }
            out += "                (\(entry.names.map { $0.replacing(" ", with: "\\ ") }.joined(separator: "|")))\n"
            out += "                    _arguments $global \\\n"
            for spec in specs {
                out += "                        \(spec) \\\n"
            }
            out += "                        && ret=0\n                    ;;\n"
        }
        out += """
                        esac
                        ;;
                esac
                return ret
            }

            # Asks kanban what goes here (boards, cards with their titles, labels, or file names)
            # for the line as typed, and offers it in groups. kanban sends each group as a line
            # "GROUP COUNT", then COUNT values and COUNT lines to list: slices, cheap to take
            # even for thousands of cards.
            _kanban_ask() {
                local group ret=1
                local -i i=2 n
                local -a reply values displays expl
                local -a line=("${(@)_kanban_line}")
                # A word that opens a quote is read as if it were closed: (Q) leaves an open quote.
                [[ -n $compstate[quote] ]] && line[-1]+=$compstate[quote]
                reply=("${(@f)$(command ${~line[1]} __complete zsh "${(@Q)line[2,-1]}" 2>/dev/null)}")
                case $reply[1] in
                    (files) _files; return ;;
                    (values) ;;
                    (*) return 1 ;;
                esac
                while (( i < $#reply )); do
                    group=${reply[i]%% *}
                    n=${reply[i]##* }
                    values=("${(@)reply[i+1,i+n]}")
                    displays=("${(@)reply[i+n+1,i+2*n]}")
                    _wanted $group expl ${group%s} compadd -l -d displays -a values && ret=0
                    (( i += 2 * n + 1 ))
                done
                return ret
            }

            if [[ $funcstack[1] == _kanban ]]; then
                _kanban "$@"
            else
                compdef _kanban kanban
            fi

            """
        return out
    }

    /// `name:summary` for `_describe`, the name's colons escaped.
    private static func zshDescribeEntry(_ name: String, _ summary: String) -> String {
        name.replacing(":", with: "\\:") + ":" + summary
    }

    /// An `_arguments` spec: `'(-f --file)'{-f+,--file=}'[help]:value:action'`.
    private static func zshOptionSpec(_ option: CommandOption) -> String {
        let spec = option.spec
        let help = option.help.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]")
            .replacing(":", with: "\\:")
        var value = ""
        if spec.takesValue {
            let message = (spec.value ?? "value").lowercased().filter { $0 != "\"" && $0 != ":" }
            let action: String
            switch option.kind {
            case .words(let words): action = "(\(words.joined(separator: " ")))"
            case .path: action = "_files"
            case .text: action = " "
            default: action = "_kanban_ask"
            }
            value = ":\(message):\(action)"
        }
        let repeatable = spec.repeatable ? "*" : ""
        guard let short = spec.short else {
            let name = spec.name + (spec.takesValue ? "=" : "")
            return ShellQuote.word("\(repeatable)\(name)[\(help)]\(value)")
        }
        let names = spec.takesValue ? "{-\(short)+,\(spec.name)=}" : "{-\(short),\(spec.name)}"
        return ShellQuote.word(repeatable.isEmpty ? "(-\(short) \(spec.name))" : "*") + names
            + ShellQuote.word("[\(help)]\(value)")
    }

    /// The operands' spec: kanban says what goes at each position.
    private static func zshOperandSpec(_ spec: CommandSpec) -> String? {
        guard hasOperands(spec) else { return nil }
        let what = spec.synopsis.replacing(":", with: "\\:").replacing("'", with: "")
        return ShellQuote.word("*:\(what):_kanban_ask")
    }

    // MARK: - fish

    static func fish() -> String {
        var out = """
            # fish completion for \(header) fish'.
            # Load it with:  kanban completion fish | source
            # or keep it:    kanban completion fish > ~/.config/fish/completions/kanban.fish

            complete -c kanban -e
            complete -c kanban -f

            # The command on the line so far ('move', 'board add'), skipping options and their values.
            function __kanban_command
                set -l tokens (commandline -opc)
                set -e tokens[1]
                set -l words
                set -l skip 0
                for token in $tokens
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $token
                        case --
                            break
                        case \(valueOptionNames.joined(separator: " "))
                            set skip 1
                        case '-?*'
                        case '*'
                            set -a words $token
                    end
                end
                if contains -- "$words[1]" \(CommandGroups.names.joined(separator: " ")); and set -q words[2]
                    echo "$words[1] $words[2]"
                else if set -q words[1]
                    echo $words[1]
                end
            end

            function __kanban_using
                set -l command (__kanban_command)
                contains -- "$command" $argv
            end

            # Asks kanban what goes here: boards, cards (ids, described by their titles, and
            # titles), labels, or file names.
            function __kanban_ask
                set -l tokens (commandline -opc)
                set -l kanban $tokens[1]
                set -e tokens[1]
                set -l reply (command $kanban __complete fish $tokens (commandline -ct) 2>/dev/null)
                switch "$reply[1]"
                    case files
                        __fish_complete_path (commandline -ct)
                    case values
                        printf '%s\\n' $reply[2..-1]
                end
            end

            # Commands.

            """
        for (name, summary) in topLevel {
            out +=
                "complete -c kanban -n 'test -z (__kanban_command)' -a \(ShellQuote.word(name))"
                + " -d \(ShellQuote.word(summary))\n"
        }
        for group in CommandGroups.names {
            for (name, summary) in subcommands(of: group) {
                out +=
                    "complete -c kanban -n '__kanban_using \(group)' -a \(ShellQuote.word(name))"
                    + " -d \(ShellQuote.word(summary))\n"
            }
        }
        out += "\n# Options of every command.\n"
        for option in Options.global {
            out += fishOption(option, condition: nil)
        }
        for entry in entries {
            out += "\n# kanban \(entry.spec.name)\n"
            let condition = "__kanban_using " + entry.names.map { "'\($0)'" }.joined(separator: " ")
            for option in entry.spec.options {
                out += fishOption(option, condition: condition)
            }
            if hasOperands(entry.spec) {
                out += "complete -c kanban -n \(ShellQuote.word(condition)) -a '(__kanban_ask)'\n"
            }
        }
        return out
    }

    private static func fishOption(_ option: CommandOption, condition: String?) -> String {
        var line = "complete -c kanban"
        if let condition { line += " -n \(ShellQuote.word(condition))" }
        if let short = option.spec.short { line += " -s \(short)" }
        line += " -l \(option.spec.name.dropFirst(2))"
        if option.spec.takesValue {
            switch option.kind {
            case .words(let words): line += " -x -a \(ShellQuote.word(words.joined(separator: " ")))"
            case .path: line += " -r -F"
            case .text: line += " -x"
            default: line += " -x -a '(__kanban_ask)'"
            }
        }
        return line + " -d \(ShellQuote.word(option.help))\n"
    }
}
