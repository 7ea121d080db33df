import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer on a file descriptor. Standard output is written in 64 KiB blocks so a
/// replay that prints thousands of JSON lines costs no system call per line.
public final class OutputStream: Sendable {
    private let fd: Int32
    /// Bytes held before writing (64 KiB: few syscalls, still small).
    private let limit = 1 << 16
    private struct State {
        /// Bytes not yet written.
        var buffer: [UInt8] = []
        /// errno of the first write that failed (ENOSPC, EBADF, EPIPE, EIO…); nil while every write succeeded.
        var firstFailure: Int32?
        /// Lines (newlines) written to the descriptor, for "stopped after writing N lines": on a pipe
        /// that is into its buffer, not what its reader read.
        var linesWritten = 0
        /// Called once, outside the lock, when the reader goes away (`onReaderGone`).
        var readerGoneHandler: (@Sendable () -> Void)?
    }
    private let state: Mutex<State>

    public init(fd: Int32) {
        self.fd = fd
        var initial = State()
        initial.buffer.reserveCapacity(limit + 4096)
        state = Mutex(initial)
    }

    /// Is this descriptor a terminal?
    public var isTTY: Bool { isatty(fd) == 1 }

    /// May output here redraw in place and use colour? A terminal whose TERM is not "dumb"
    /// (Emacs shell buffers, some serial consoles and CI logs set TERM=dumb: escape sequences
    /// show there as garbage).
    public var acceptsEscapes: Bool { isTTY && Terminal.termAcceptsEscapes }

    /// The terminal's width in columns, asked each time (it changes when the window is resized);
    /// nil when this is not a terminal or the terminal does not say (a pty whose size was never set).
    public var columns: Int? {
        var size = winsize()
        // TIOCGWINSZ = 0x5413 (include/uapi/asm-generic/ioctls.h).
        guard ioctl(fd, UInt(0x5413), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public func write(_ text: String) {
        let gone = state.withLock { s -> (@Sendable () -> Void)? in
            // The reader of a pipe never comes back: what follows is dropped without a system call.
            guard s.firstFailure != EPIPE else { return nil }
            s.buffer.append(contentsOf: text.utf8)
            return s.buffer.count >= limit ? flushLocked(&s) : nil
        }
        gone?()
    }

    public func flush() {
        let gone = state.withLock { flushLocked(&$0) }
        gone?()
    }

    /// Why output was lost (e.g. "No space left on device"), or nil when nothing was. Tools check
    /// it before exiting: output that did not arrive is a failure (exit 1), never a silent success.
    public var failure: String? {
        state.withLock { $0.firstFailure.map { String(cString: strerror($0)) } }
    }

    /// The errno behind `failure` (ENOSPC, EBADF, EIO…), or nil when nothing was lost.
    public var failureCode: Int32? { state.withLock { $0.firstFailure } }

    /// Has the program reading this pipe gone (`| head -1` that has its line, `| false`)? Tools
    /// ignore SIGPIPE (`ToolMain`), so the write failed with EPIPE instead of killing the tool.
    public var readerGone: Bool { state.withLock { $0.firstFailure == EPIPE } }

    /// Lines written to the descriptor so far (a line cut by a failed write is not counted); on a
    /// pipe, into its buffer: whether the reader read them is not known here.
    public var linesWritten: Int { state.withLock { $0.linesWritten } }

    /// Calls `handler` once when the reader goes away or any write fails (at once when one
    /// already has: full disk, closed descriptor), so a tool that would run until stopped stops as
    /// after Ctrl-C (`SignalTrap` registers its stop here). One handler: a later call replaces an earlier one.
    public func onReaderGone(_ handler: @escaping @Sendable () -> Void) {
        let goneAlready = state.withLock { s -> Bool in
            guard s.firstFailure == nil else { return true }
            s.readerGoneHandler = handler
            return false
        }
        if goneAlready { handler() }
    }

    /// Writes the buffer; returns the reader-gone handler to call (outside the lock) when this
    /// flush found the reader gone.
    private func flushLocked(_ s: inout State) -> (@Sendable () -> Void)? {
        var offset = 0
        var gone: (@Sendable () -> Void)?
        while offset < s.buffer.count {
            let n = s.buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if s.firstFailure == nil {
                    s.firstFailure = errno
                    // Any lost output stops a tool that would run on (a full disk too: a live
                    // `--json > FILE` counted on for hours, writing nothing, until Ctrl-C).
                    gone = s.readerGoneHandler
                    s.readerGoneHandler = nil
                }
                break   // full disk, closed descriptor, reader gone: drop output, never spin.
            }
            s.linesWritten += s.buffer.withUnsafeBytes { Self.newlines(in: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + n)])) }
            offset += n
        }
        s.buffer.removeAll(keepingCapacity: true)
        return gone
    }

    private static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for b in bytes where b == UInt8(ascii: "\n") { count += 1 }
        return count
    }
}

public enum Terminal {
    public static let standardOutput = OutputStream(fd: STDOUT_FILENO)
    public static let standardError = OutputStream(fd: STDERR_FILENO)

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    public static var colorEnabled: Bool {
        if let v = getenv("NO_COLOR"), v.pointee != 0 { return false }
        return standardOutput.acceptsEscapes
    }

    /// TERM is not "dumb". (Unset on a terminal is taken as capable: every terminal emulator
    /// sets TERM, and so do ssh and login.)
    public static var termAcceptsEscapes: Bool {
        guard let term = getenv("TERM") else { return true }
        return String(cString: term) != "dumb"
    }
}
