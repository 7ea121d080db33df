import Foundation
import Testing

/// The live view in a real pseudo-terminal: tmux runs `imu-steps`, capture-pane reads the screen.
@Suite(.serialized) struct ImuStepsLiveViewTests {
    static let tmux = ["/usr/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs tmux with a private socket so tests never touch a user's sessions.
    func tmux(_ socket: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.tmux!)
        p.arguments = ["-S", socket] + args
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Polls the pane until `predicate` holds or `seconds` pass (a wait for a condition, not a timing assertion).
    func waitForScreen(_ socket: String, seconds: Double, _ predicate: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = ""
        while Date() < deadline {
            screen = try tmux(socket, ["capture-pane", "-p", "-t", "live"])
            if predicate(screen) { return screen }
            usleep(200_000)
        }
        return screen
    }

    @Test func statusLineUpdatesInPlaceAndCtrlCPrintsSummary() throws {
        try #require(Self.tmux != nil, "tmux is not installed (scripts/ensure-deps.sh test installs it)")
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-tmux-\(UUID().uuidString)").path
        defer { _ = try? tmux(socket, ["kill-server"]) }
        let command = "\(ToolRunner.path("imu-steps")) --simulate walk --speed 4"
        _ = try tmux(socket, ["new-session", "-d", "-s", "live", "-x", "120", "-y", "20", "env NO_COLOR=1 \(command); sleep 30"])

        // The header says it is simulated, and the status line shows steps once walking starts.
        let walking = try waitForScreen(socket, seconds: 60) { screen in
            screen.contains("SIMULATED") && screen.range(of: #"[1-9][0-9]* steps"#, options: .regularExpression) != nil
        }
        #expect(walking.contains("SIMULATED"), "screen:\n\(walking)")
        #expect(walking.range(of: #"[1-9][0-9]* steps .* spm"#, options: .regularExpression) != nil, "screen:\n\(walking)")
        // In place: one status line, not a scrolling list of them.
        #expect(walking.components(separatedBy: " spm").count - 1 == 1, "screen:\n\(walking)")
        #expect(!walking.contains("\u{1B}["), "NO_COLOR leaves no escape codes on screen")

        _ = try tmux(socket, ["send-keys", "-t", "live", "C-c"])
        let summary = try waitForScreen(socket, seconds: 30) { $0.contains("Summary") }
        #expect(summary.contains("Summary"), "screen:\n\(summary)")
        #expect(summary.range(of: #"steps +[1-9][0-9]*"#, options: .regularExpression) != nil, "screen:\n\(summary)")
    }

    @Test func pipedOutputIsPlainLines() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("\r"))
        #expect(!r.stdout.contains("\u{1B}["))
        #expect(r.stdout.contains("SIMULATED"))
        #expect(r.stdout.contains("Summary"))
    }
}
