#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes to a descriptor with `write(2)`, whole or up to the first failure. Blocks while
/// the descriptor does: call it only off the Swift concurrency pool (`OutputStream.writer`).
enum DescriptorWriter {
    struct Result {
        /// Newlines among the bytes written (a line cut by a failure counts when its newline went).
        var newlines = 0
        /// errno of the write that failed (ENOSPC, EBADF, EPIPE, EIO…); the rest was dropped.
        var failure: Int32?
    }

    static func write(_ bytes: [UInt8], to fd: Int32) -> Result {
        var result = Result()
        bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let n = Glibc.write(fd, all.baseAddress! + offset, all.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    result.failure = errno
                    return   // full disk, closed descriptor, reader gone: drop the rest, never spin.
                }
                for b in UnsafeRawBufferPointer(rebasing: all[offset..<(offset + n)]) where b == UInt8(ascii: "\n") {
                    result.newlines += 1
                }
                offset += n
            }
        }
        return result
    }
}
