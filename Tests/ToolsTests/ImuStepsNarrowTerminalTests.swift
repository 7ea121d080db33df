import Foundation
import OffPool
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The live view on terminals of different widths (a phone held upright is about 40 columns):
/// every field is shown, nothing wraps, and redrawing in place leaves no debris.
@Suite(.offPool, .serialized) struct ImuStepsNarrowTerminalTests {
    /// Sets the pty's window size (TIOCSWINSZ, include/uapi/asm-generic/ioctls.h, from Glibc).
    func setWidth(_ pty: PseudoTerminal, _ columns: Int) {
        var size = winsize(ws_row: 40, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(pty.master, UInt(TIOCSWINSZ), &size)
    }

    @Test(arguments: [32, 46, 120])
    func everyFieldFitsAndRedrawsCleanly(width: Int) throws {
        let pty = try PseudoTerminal()
        setWidth(pty, width)
        let tool = try ToolProcess("imu-steps", ["--simulate", "demo", "--speed", "8"],
                                   environment: ["NO_COLOR": "1"], terminal: pty)
        var raw = ""
        var screen = TerminalScreen(width: width)
        // Wait (for a condition, not a duration) until a floor has been climbed and steps counted.
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline && tool.process.isRunning {
            let more = pty.drain()
            raw += more
            screen.feed(more)
            if raw.contains("floor up at") && screen.lines.contains(where: { $0.contains("↑1") }) { break }
            usleep(100_000)
        }
        let lines = screen.lines
        let labels = width >= 120 ? [" steps  ", "spm", " m ", "/km", "floors ↑1", "walking"]
                                  : ["steps ", "cadence ", "distance ", "pace ", "floors ", "activity ", "elapsed "]
        for label in labels {
            #expect(lines.filter { $0.contains(label) }.count == 1, "'\(label)' once at width \(width): \(lines)")
        }
        // Redrawn many times, yet the status appears once: no debris of earlier draws.
        #expect(raw.components(separatedBy: "\r\u{1B}[2K").count > 10)
        #expect(lines.filter { $0.range(of: #"[0-9]+ spm"#, options: .regularExpression) != nil }.count == 1, "\(lines)")

        tool.send(SIGINT)
        #expect(tool.wait() == 0)
        raw += pty.drain()
        let final = TerminalScreen(width: width, output: raw).lines
        #expect(final.contains { $0.hasPrefix("Summary") }, "\(final)")
        #expect(!final.contains { $0.contains(" spm") }, "the live status is erased before the summary: \(final)")
    }

    @Test func screenModelWrapsLikeATerminal() {
        // The model must show debris when a too-wide line is "redrawn" with one erase; otherwise the
        // test above could not fail.
        let s = TerminalScreen(width: 10, output: "0123456789abc\r\u{1B}[2Kxyz")
        #expect(s.lines == ["0123456789", "xyz"])
    }
}
