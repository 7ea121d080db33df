import Foundation
import OffPool
import Testing

/// The guided session on a terminal: the averaging progress bar is redrawn in place, and the
/// prompts, results and report stay on screen.
@Suite(.offPool, .serialized) struct ImuCalibrateTerminalTests {
    @Test func progressBarRedrawsInPlaceAndPromptsStay() throws {
        let pty = try PseudoTerminal()
        let config = NSTemporaryDirectory() + "imukit-pty-\(UUID().uuidString)"
        let tool = try ToolProcess("imu-calibrate", ["--six-position", "--simulate", "six-position", "--speed", "25"],
                                   environment: ["XDG_CONFIG_HOME": config], terminal: pty)
        let process = tool.process

        var raw = ""
        let deadline = Date().addingTimeInterval(90)
        while process.isRunning && Date() < deadline {
            raw += pty.drain()
            usleep(100_000)
        }
        raw += pty.drain()
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        // The bar was redrawn many times per face…
        let redraws = raw.components(separatedBy: "\r\u{1B}[K      averaging +z up [").count - 1
        #expect(redraws > 10, "redraws: \(redraws)")
        #expect(raw.contains("averaging -x up [########################] 100%"))
        // …but the screen holds no bar afterwards: each was replaced by its result line.
        let screen = renderScreen(raw)
        #expect(!screen.contains { $0.contains("averaging +") || $0.contains("averaging -") }, "screen: \(screen)")
        for face in ["+z", "-z", "+y", "-y", "+x", "-x"] {
            #expect(screen.contains { $0.hasPrefix("      done: \(face) up, mean") }, "\(face): \(screen)")
        }
        #expect(screen.contains("Saved. Every imukit tool now applies it to this sensor (--raw turns it off)."))
    }
}
