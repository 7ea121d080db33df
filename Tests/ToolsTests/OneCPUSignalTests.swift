import Foundation
import OffPool
import Testing

/// Ctrl-C stops a tool also when its Swift concurrency pool has one thread, as on a one-core
/// board, and that thread is busy: a replay or simulation as fast as possible takes batch after
/// batch without suspending. The signal handlers run on a queue of their own (`SignalTrap`);
/// on a global queue they waited for that thread, i.e. for the end of the run. `taskset -c 0`
/// gives the tool one CPU, and Dispatch sizes the pool by the CPUs the process may use.
@Suite(.offPool) struct OneCPUSignalTests {
    static let taskset = "/usr/bin/taskset"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: taskset), "no taskset (util-linux)"))
    func interruptStopsAToolComputingOnItsOnlyPoolThread() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.taskset)
        // Ten hours of walking as fast as it goes: minutes of work on one CPU.
        process.arguments = ["-c", "0", ToolRunner.path("imu-steps"), "--simulate", "walk:36000", "--speed", "max", "--json"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        usleep(3_000_000)   // well into the run: started, and computing
        try #require(process.isRunning, "imu-steps ended before it was interrupted (status \(process.terminationStatus))")

        kill(process.processIdentifier, SIGINT)
        // The stop takes one batch (1024 samples) and the summary; 10 s is ample on one loaded CPU.
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        #expect(!process.isRunning, "imu-steps still ran 10 s after SIGINT")
        if !process.isRunning { #expect(process.terminationStatus == 0, "a clean stop, with its summary") }
    }
}
