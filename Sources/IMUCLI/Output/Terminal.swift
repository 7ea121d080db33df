#if canImport(Glibc)
import Glibc
#endif

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
