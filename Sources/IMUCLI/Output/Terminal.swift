import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer on a file descriptor. Standard output is written in 64 KiB blocks so a
/// replay that prints thousands of JSON lines costs no system call per line.
public final class OutputStream: Sendable {
    private let fd: Int32
    /// Bytes not yet written.
    private let buffer: Mutex<[UInt8]>
    /// Bytes held before writing (64 KiB: few syscalls, still small).
    private let limit = 1 << 16

    public init(fd: Int32) {
        self.fd = fd
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limit + 4096)
        buffer = Mutex(bytes)
    }

    /// Is this descriptor a terminal?
    public var isTTY: Bool { isatty(fd) == 1 }

    /// The terminal's width in columns, asked each time (it changes when the window is resized);
    /// nil when this is not a terminal or the terminal does not say (a pty whose size was never set).
    public var columns: Int? {
        var size = winsize()
        // TIOCGWINSZ = 0x5413 (include/uapi/asm-generic/ioctls.h).
        guard ioctl(fd, UInt(0x5413), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public func write(_ text: String) {
        buffer.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= limit { flushLocked(&buffer) }
        }
    }

    public func flush() { buffer.withLock { flushLocked(&$0) } }

    private func flushLocked(_ buffer: inout [UInt8]) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                break   // EPIPE (reader went away) or similar: drop output, never spin.
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

public enum Terminal {
    public static let standardOutput = OutputStream(fd: STDOUT_FILENO)
    public static let standardError = OutputStream(fd: STDERR_FILENO)

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    public static var colorEnabled: Bool {
        if let v = getenv("NO_COLOR"), v.pointee != 0 { return false }
        return standardOutput.isTTY
    }
}
