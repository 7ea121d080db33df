import Foundation
import OffPool
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair: the tool writes to the slave side as it would to a real terminal,
/// the test reads what a terminal would show from the master side.
final class PseudoTerminal {
    let master: Int32
    let slave: FileHandle

    /// TIOCSPTLCK = _IOW('T', 0x31, int) and TIOCGPTN = _IOR('T', 0x30, unsigned int)
    /// (include/uapi/asm-generic/ioctls.h): unlock the slave, get its number. Swift's Glibc module
    /// hides posix_openpt/grantpt/unlockpt/ptsname and cannot import function-like macros, so the
    /// numbers are built here the way include/uapi/asm-generic/ioctl.h builds them.
    static let setPtyLock = ioctlNumber(.write, type: "T", number: 0x31, size: MemoryLayout<Int32>.size)
    static let getPtyNumber = ioctlNumber(.read, type: "T", number: 0x30, size: MemoryLayout<UInt32>.size)

    /// The data direction of an ioctl, seen from user space (_IOC_WRITE = 1, _IOC_READ = 2).
    enum IoctlDirection: UInt { case write = 1, read = 2 }

    /// `_IOC(dir, type, nr, size)` of include/uapi/asm-generic/ioctl.h: nr in bits 0–7, type in
    /// bits 8–15, size in bits 16–29 (_IOC_SIZEBITS = 14), direction in bits 30–31 (x86, arm, riscv).
    static func ioctlNumber(_ direction: IoctlDirection, type: Character, number: UInt, size: Int) -> UInt {
        direction.rawValue << 30 | UInt(size) << 16 | UInt(type.asciiValue!) << 8 | number
    }

    init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0, number: Int32 = -1
        guard master >= 0, ioctl(master, Self.setPtyLock, &unlock) == 0, ioctl(master, Self.getPtyNumber, &number) == 0 else {
            throw ToolTimeout(tool: "open /dev/ptmx", seconds: 0)
        }
        let fd = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw ToolTimeout(tool: "open pty slave", seconds: 0) }
        slave = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(master) }

    /// Runs imu-steps with `arguments` on this terminal, its environment changed by `changes` (nil
    /// removes a variable), until it exits (at most 60 s): what the terminal showed, and the status.
    func runImuSteps(_ arguments: [String], environment changes: [String: String?]) throws -> (shown: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.path("imu-steps"))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in changes { env[key] = value }
        process.environment = env
        process.standardOutput = slave
        process.standardError = slave
        try process.run()
        var raw = ""
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { raw += drain(); usleep(50_000) }
        raw += drain()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (raw, process.terminationStatus)
    }

    /// Reads everything available now.
    func drain() -> String {
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// What a terminal shows for the output: `\r` returns to column 0, `ESC[2K` clears the line,
/// `\n` starts a new line, other text overwrites from the cursor; other escape sequences are dropped.
func renderScreen(_ raw: String) -> [String] {
    // Unicode scalars, not Characters: "\r\n" is one Character in Swift.
    let scalars = Array(raw.unicodeScalars)
    var lines: [[Unicode.Scalar]] = [[]]
    var column = 0
    var i = 0
    while i < scalars.count {
        let c = scalars[i]
        if c == "\r" { column = 0 }
        else if c == "\n" { lines.append([]); column = 0 }
        else if c == "\u{1B}" {
            var j = i + 1
            var sequence = ""
            if j < scalars.count && scalars[j] == "[" {
                j += 1
                while j < scalars.count && !CharacterSet.letters.contains(scalars[j]) { sequence.unicodeScalars.append(scalars[j]); j += 1 }
                if j < scalars.count { sequence.unicodeScalars.append(scalars[j]) }
            }
            if sequence == "2K" { lines[lines.count - 1] = [] }
            i = j + 1
            continue
        } else {
            if column < lines[lines.count - 1].count { lines[lines.count - 1][column] = c } else { lines[lines.count - 1].append(c) }
            column += 1
        }
        i += 1
    }
    return lines.map { line in var s = ""; s.unicodeScalars.append(contentsOf: line); return s }
}

@Suite(.offPool, .serialized) struct ImuStepsLiveViewTests {
    @Test func statusLineUpdatesInPlaceOnATerminalAndCtrlCPrintsSummary() throws {
        let pty = try PseudoTerminal()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.path("imu-steps"))
        process.arguments = ["--simulate", "walk", "--speed", "4"]
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["TERM"] = "xterm-256color"
        process.environment = env
        process.standardOutput = pty.slave
        process.standardError = pty.slave
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Wait (for a condition, not a duration) until the status line shows counted steps and has
        // been redrawn a few times (once per hand-over, at most twice a second).
        var raw = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            raw += pty.drain()
            if let last = renderScreen(raw).last, last.range(of: #"^[1-9][0-9]* steps"#, options: .regularExpression) != nil,
               raw.components(separatedBy: "\r\u{1B}[2K").count > 3 { break }
            usleep(100_000)
        }
        let screen = renderScreen(raw)
        #expect(screen.first?.contains("SIMULATED") == true, "screen: \(screen)")
        let status = try #require(screen.last)
        #expect(status.range(of: #"^[1-9][0-9]* steps +[0-9–]+ spm +[0-9.]+ m"#, options: .regularExpression) != nil, "status: \(status)")
        // Redrawn in place: many updates were written, but the screen holds one status line.
        #expect(raw.components(separatedBy: "\r\u{1B}[2K").count > 3)
        #expect(screen.filter { $0.contains(" spm ") }.count == 1, "screen: \(screen)")
        #expect(raw.contains("\u{1B}[1;32m"), "colour on a terminal without NO_COLOR")

        process.interrupt()   // Ctrl-C
        let stop = Date().addingTimeInterval(30)
        while process.isRunning && Date() < stop { usleep(50_000) }
        raw += pty.drain()
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        let final = renderScreen(raw)
        #expect(final.contains { $0.hasPrefix("Summary") }, "screen: \(final)")
        #expect(final.contains { $0.range(of: #"^  steps +[1-9][0-9]*$"#, options: .regularExpression) != nil }, "screen: \(final)")
    }

    @Test func pipedOutputIsPlainLines() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("\r"))
        #expect(!r.stdout.contains("\u{1B}["))
        #expect(r.stdout.contains("SIMULATED"))
        #expect(r.stdout.contains("Summary"))
    }

    @Test func noColorIsRespectedOnATerminal() throws {
        let (raw, _) = try PseudoTerminal().runImuSteps(["--simulate", "walk", "--speed", "max"], environment: ["NO_COLOR": "1"])
        #expect(raw.contains("Summary"))
        #expect(!raw.contains("\u{1B}[1;32m") && !raw.contains("\u{1B}[0m"), "NO_COLOR: no colour codes")
    }
}
