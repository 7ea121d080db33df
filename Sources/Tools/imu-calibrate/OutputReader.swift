#if canImport(Glibc)
import Glibc
#endif
import IMUCLI

/// Whether the program reading standard output has gone (`| head -1` that has its line, a pager
/// closed, `| false`). The guided session asks between batches: it waits on a person who can no
/// longer read its prompts, or whose result would be written into nothing, so it stops there.
enum OutputReader {
    /// True once a write to standard output failed with EPIPE (`ToolMain` ignores SIGPIPE), or
    /// when poll(2) says the pipe or socket behind it has no reader left: POLLERR on a pipe's
    /// write end whose readers have all closed (fs/pipe.c, pipe_poll), POLLHUP on a socket or a
    /// terminal that hung up. A file or a terminal in use never shows either. The poll is how a
    /// `--json` session, which writes nothing to standard output until the end, learns it.
    static var isGone: Bool {
        if Terminal.standardOutput.readerGone { return true }
        var p = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        guard poll(&p, 1, 0) == 1 else { return false }
        return p.revents & Int16(POLLERR | POLLHUP) != 0
    }
}
