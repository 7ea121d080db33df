import Foundation
import IMUSimulation
import OffPool
import Testing

/// completions/imukit.bash and completions/_imukit, driven as bash and zsh would drive them:
/// options come from the tool's --help, FILE values complete file names, --simulate the
/// simulator's scenarios, --source the source forms.
@Suite(.offPool) struct CompletionTests {
    /// The completion file as installed: @TOOLS@ replaced by the shipped tools.
    static func installed(_ name: String) throws -> String {
        let text = try String(contentsOf: ToolRunner.packageRoot.appendingPathComponent("completions/\(name)"), encoding: .utf8)
        let path = try scratchDirectory() + "/" + name
        try text.replacingOccurrences(of: "@TOOLS@", with: ShippedTools.names.joined(separator: " "))
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What bash's completion offers for the command line `words` (the last word is being typed).
    /// Words are given as typed; they reach the function split as bash splits them at ':' and '='
    /// (COMP_WORDBREAKS): "sim:wa" arrives as "sim" ":" "wa", and bash replaces only "wa".
    static func bash(_ typed: [String], in directory: String? = nil) throws -> [String] {
        let script = try installed("imukit.bash")
        var words: [String] = []
        for word in typed {
            var piece = ""
            for c in word {
                if c == ":" || c == "=" {
                    if !piece.isEmpty { words.append(piece) }
                    words.append(String(c))
                    piece = ""
                } else { piece.append(c) }
            }
            if !piece.isEmpty || word.isEmpty || word.last.map({ $0 != ":" && $0 != "=" }) == true { words.append(piece) }
        }
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _imukit
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try runCommand("/bin/bash", ["-c", program], environment: ["PATH": ToolRunner.binDirectory.path + ":/usr/bin:/bin"],
                               directory: directory)
        #expect(r.status == 0, "bash: \(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesEveryOptionOfEveryTool() throws {
        for tool in ShippedTools.names {
            let offered = Set(try Self.bash([tool, "--"]))
            let options = try helpOptions(tool)
            #expect(!options.isEmpty)
            for o in options { #expect(offered.contains("--\(o)"), "\(tool) --<TAB> lacks --\(o): \(offered.sorted())") }
            #expect(offered.allSatisfy { $0.hasPrefix("--") })
        }
        #expect(try Self.bash(["imu-steps", "--sim"]) == ["--simulate"])
        #expect(try Self.bash(["imu-steps", "--si"]).sorted() == ["--simulate", "--since"])
    }

    @Test func bashCompletesScenariosSourcesAndFiles() throws {
        #expect(try Self.bash(["imu-steps", "--simulate", ""]).sorted() == Scenario.allNames.sorted())
        #expect(try Self.bash(["imu-steps", "--simulate", "stai"]).sorted() == ["stairs-down", "stairs-up"])
        if ShippedTools.names.contains("imu-plot") {   // its help names imu-steps' list instead
            #expect(try Self.bash(["imu-plot", "--simulate", "stai"]).sorted() == ["stairs-down", "stairs-up"])
        }
        #expect(try Self.bash(["imu-steps", "--simulate=wa"]).sorted() == ["walk", "wave"])
        let sources = try Self.bash(["imu-steps", "--source", ""])
        #expect(sources.contains("iio:local:") && sources.contains("iio:ip:"))
        #expect(Set(Scenario.allNames.map { "sim:\($0)" }).isSubset(of: Set(sources)), "\(sources)")
        #expect(try Self.bash(["imu-steps", "-s", "sim:st"]).sorted() == ["stairs-down", "stairs-up", "still", "stroll"])
        #expect(try Self.bash(["imu-record", "--source", "iio:"]).sorted() == ["ip:", "local:"])
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["walk.csv", "wave.csv", "other.txt"] { _ = FileManager.default.createFile(atPath: "\(dir)/\(name)", contents: nil) }
        #expect(try Self.bash(["imu-steps", "--replay", "w"], in: dir).sorted() == ["walk.csv", "wave.csv"])
        #expect(try Self.bash(["imu-steps", "-r", "o"], in: dir) == ["other.txt"])
        #expect(try Self.bash(["imu-record", "--out", "wal"], in: dir) == ["walk.csv"])
        // A value that is neither a file, a scenario nor a source: nothing is guessed.
        #expect(try Self.bash(["imu-steps", "--rate", ""]).isEmpty)
    }

    /// The `_arguments` specs zsh's completion builds for `tool`, with zsh's completion functions
    /// stubbed to print what they are given (zsh's own matching is not under test here).
    static func zshSpecs(_ tool: String) throws -> [String]? {
        guard onPath("zsh") else {
            print("CompletionTests: zsh part skipped: zsh is not installed (apt-get install zsh)")
            return nil
        }
        let script = try installed("_imukit")
        let program = """
            _call_program() { shift; "$@"; }
            _arguments() { shift; printf '%s\\n' "$@"; }
            words=(\(tool) '')
            source '\(script)'
            """
        let r = try runCommand("/usr/bin/env", ["zsh", "-f", "-c", program],
                               environment: ["PATH": ToolRunner.binDirectory.path + ":/usr/bin:/bin"])
        #expect(r.status == 0, "zsh: \(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func zshDescribesEveryOptionAndItsValue() throws {
        guard let specs = try Self.zshSpecs("imu-steps") else { return }
        for o in try helpOptions("imu-steps") {
            #expect(specs.contains { $0.hasPrefix("--\(o)[") || $0.hasPrefix("--\(o)=[") || $0.hasSuffix(")--\(o)") || $0.contains(")--\(o)[") || $0.contains(")--\(o)=[") },
                    "no zsh spec for --\(o): \(specs)")
        }
        let simulate = try #require(specs.first { $0.hasPrefix("--simulate=[") })
        #expect(simulate.hasSuffix(":NAME:(\(Scenario.allNames.joined(separator: " ")))"), "\(simulate)")
        #expect(specs.contains { $0.hasPrefix("(-r --replay)--replay=[") && $0.hasSuffix(":FILE:_files") })
        #expect(specs.contains { $0.hasPrefix("(-s --source)-s[") && $0.hasSuffix(":SPEC:_imukit_sources") })
        // Brackets and colons in a description are escaped (the --stride help has "steps/s:metres").
        let stride = try #require(specs.first { $0.hasPrefix("--stride=[") })
        #expect(stride.contains("steps/s\\:metres"), "\(stride)")
        #expect(specs.contains("--json[JSON Lines on stdout\\: step, floor, activity events, then a summary (docs/CONTRACTS.md §3)]") ||
                specs.contains { $0.contains("--json[JSON Lines") }, "\(specs)")
    }

    @Test func zshOffersTheSourceForms() throws {
        guard onPath("zsh") else { return }
        let script = try Self.installed("_imukit")
        let program = """
            _call_program() { shift; "$@"; }
            _arguments() { _imukit_sources; }
            compadd() { shift 3; local n; for n in ${(P)1}; do print -r -- $n; done; }
            words=(imu-steps --source '')
            source '\(script)'
            """
        let r = try runCommand("/usr/bin/env", ["zsh", "-f", "-c", program],
                               environment: ["PATH": ToolRunner.binDirectory.path + ":/usr/bin:/bin"])
        let forms = r.stdout.split(separator: "\n").map(String.init)
        #expect(forms.contains("iio:local:") && forms.contains("iio:ip:") && forms.contains("sim:walk"), "\(forms) \(r.stderr)")
    }
}
