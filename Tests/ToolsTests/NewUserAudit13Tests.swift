import Foundation
import OffPool
import Testing

/// The session-13 new-user audit: each tool tried with bad input as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool) struct NewUserAudit13Tests {
    /// `imu-record -o - > /dev/full` said "everything before this point was written, in whole
    /// lines" when not even the header was: it now says no sample was written, and the fix names
    /// where standard output goes.
    @Test func aRecordingToAFullStandardOutputSaysNothingWasWritten() throws {
        let r = try ShellRunner.run("\"$BIN\"/imu-record --simulate walk:5 --speed max -o - > /dev/full")
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("standard output: write failed: No space left on device; no sample was written\n"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("everything before this point"), "stderr: \(r.stderr)")
        // Since session 21 the fix says /dev/full is a device (it said to free space on the disk);
        // a file that cannot grow keeps the disk's fix.
        #expect(r.stderr.contains("fix: standard output is a character device (such as /dev/full), not a file on disk: record to a file (--out FILE)"), "stderr: \(r.stderr)")
        let file = try ShellRunner.run(#"trap '' XFSZ; ulimit -f 1; exec "$BIN"/imu-record --simulate walk:5 --speed max -o - > out.csv"#, directory: try scratchDirectory())
        #expect(file.status == 1, "stderr: \(file.stderr)")
        #expect(file.stderr.contains("fix: free space on the disk standard output goes to, or record to a file on another one (--out FILE)"), "stderr: \(file.stderr)")
    }

    /// `--replay -` typed at a terminal (a forgotten `< walk.csv`) waited silently for a
    /// recording typed by hand. Every tool that reads recordings now refuses it, exit 2.
    @Test func aTerminalIsNoRecording() throws {
        let terminal = try PseudoTerminal()
        guard let name = ttyname(terminal.slave.fileDescriptor).map({ String(cString: $0) }) else {
            print("skipped: the pseudo-terminal has no name"); return
        }
        for tool in ["imu-steps --replay -", "imu-plot -o p.svg --replay -", "imu-record -o r.csv --replay -",
                     "imu-calibrate -6 --from-recording -"] {
            let option = tool.contains("--from-recording") ? "--from-recording" : "--replay"
            let r = try ShellRunner.run("\"$BIN\"/\(tool) < \(name)", directory: try scratchDirectory(), timeout: 30)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("\(option) -: standard input is the terminal, not a recording"), "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("fix: pipe or redirect a recording into it, e.g. \(option) - < walk.csv"), "\(tool): \(r.stderr)")
        }
    }
}
