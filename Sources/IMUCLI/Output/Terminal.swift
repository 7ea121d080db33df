#if canImport(Glibc)
import Glibc
#endif

public enum Terminal {
    public static let standardOutput = OutputStream(fd: STDOUT_FILENO)
    /// Standard error hands over standard output's collected lines before its own, so a message
    /// keeps its place among the lines when both go to one pipe (`2>&1`).
    public static let standardError = OutputStream(fd: STDERR_FILENO, follows: standardOutput)

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
