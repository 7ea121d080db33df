import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's open descriptors and those a child it spawns is left with, from /proc/PID/fd
/// (proc(5)): what a test needs to see that a file or socket is not inherited.
public enum Descriptors {
    /// Descriptor number → what it refers to (a path, "socket:[INODE]", "pipe:[INODE]", ...).
    public static func open(in pid: pid_t) -> [Int32: String] {
        let dir = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [:] }
        var links: [Int32: String] = [:]
        for name in names {
            guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + name) else { continue }
            links[fd] = target
        }
        return links
    }

    /// This process's descriptors that refer to `target` (a path or "socket:[INODE]").
    public static func numbers(referringTo target: String) -> [Int32] {
        open(in: getpid()).filter { $0.value == target }.map(\.key).sorted()
    }

    /// A second descriptor (dup(2)) of the one this process holds on `target`: the copy a child
    /// being spawned holds until its exec. Nil unless exactly one descriptor refers to `target`.
    public static func duplicate(of target: String) -> Int32? {
        let held = numbers(referringTo: target)
        guard held.count == 1 else { return nil }
        let copy = dup(held[0])
        return copy >= 0 ? copy : nil
    }

    /// What a child spawned now holds after its exec: `posix_spawn` (no file actions, nothing
    /// closed on purpose, as a library or a daemon helper would spawn) of `sleep`, whose
    /// /proc/PID/fd is read and which is then killed. glibc's posix_spawn returns once the child
    /// has exec'd (it shares the parent's memory until then), so O_CLOEXEC has acted.
    public static func heldBySpawnedChild() throws -> Set<String> {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sleep", "30"].map { (text: String) in strdup(text) } + [nil]
        defer { for a in argv { free(a) } }
        let status = posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ)
        guard status == 0 else { throw DescriptorError(message: "posix_spawn /bin/sleep: \(String(cString: strerror(status)))") }
        let held = Set(open(in: pid).values)
        kill(pid, SIGKILL)
        var reaped: Int32 = 0
        _ = waitpid(pid, &reaped, 0)
        return held
    }

    /// This process's TCP connections to 127.0.0.1:`port`, as their descriptors name them
    /// ("socket:[INODE]"). /proc/self/net/tcp lists the whole network namespace (proc(5): remote
    /// address as hex IP:PORT, inode in field 10), so only inodes this process holds are kept.
    public static func tcpSockets(toPort port: Int) -> [String] {
        // Read to the end: String(contentsOfFile:) stops after the first 4 KiB of a /proc file.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/net/tcp"), let data = try? file.readToEnd() else { return [] }
        try? file.close()
        let table = String(decoding: data, as: UTF8.self)
        let remote = String(format: "0100007F:%04X", port)
        let mine = Set(open(in: getpid()).values)
        return table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let f = line.split(separator: " ")
            guard f.count > 9, f[2] == remote else { return nil }
            let name = "socket:[\(f[9])]"
            return mine.contains(name) ? name : nil
        }
    }
}

public struct DescriptorError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
