import Foundation
import OffPool
import Testing

/// Defects the session-11 audit found, each tried on the built tools as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool, .serialized) struct NewUserAudit11Tests {
    /// `imu-steps --replay - --json` called standard input "standard input" in its messages and
    /// "recording -" in the summary's `source`: one thing, two names. Both now say "standard input".
    @Test func theSummaryNamesStandardInputAsTheMessagesDo() throws {
        let dir = try scratchDirectory()
        var text = "t,ax,ay,az\n"
        for i in 0..<500 { text += String(format: "%.2f,0,0,1\n", Double(i) * 0.02) }   // 10 s lying still at 50 Hz
        try text.write(toFile: dir + "/still.csv", atomically: true, encoding: .utf8)
        let r = try ShellRunner.run(#""$BIN/imu-steps" --replay - --json < still.csv"#, directory: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let summary = try #require(try jsonObjects(r).last)
        #expect(summary["source"] as? String == "recording standard input", "\(summary)")
        let bad = try ShellRunner.run(#"printf 't,ax,ay,az\n0,0,0,1\n0.02,0,x,1\n' | "$BIN/imu-steps" --replay - --json"#, directory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("imu-steps: standard input:3: "), "stderr: \(bad.stderr)")
    }

    /// Every shipped tool parses with the one parser, so each decides a repeated option the same
    /// way: a flag twice is what it is once (`--help --help`), a value given twice with different
    /// values is a usage error naming both (which one was meant cannot be known).
    @Test func everyToolRefusesAValueGivenTwiceAndTakesAFlagTwice() throws {
        let tools = ShippedTools.names
        #expect(tools.count >= 6, "make print-tools: \(tools)")
        for tool in tools {
            let help = try ToolRunner.run(tool, ["--help"])
            let valued = help.stdout.firstMatch(of: /\n  (?:-\S, | {4})--([a-z0-9-]+) [A-Z]/).map { String($0.1) }
            let option = try #require(valued, "\(tool) --help lists no option with a value")
            let r = try ToolRunner.run(tool, ["--\(option)", "first", "--\(option)=second"], timeout: 30)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("\(tool): --\(option) given twice ('first' and 'second'); give it once"), "\(tool): \(r.stderr)")
            let twice = try ToolRunner.run(tool, ["--help", "-h"], timeout: 30)
            #expect(twice.status == 0 && twice.stdout == help.stdout, "\(tool): \(twice.stderr)")
        }
    }
}
