#if canImport(Glibc)
import Glibc
#endif

/// Names the calling thread for the kernel (what `ps -L`, `top -H` and /proc/PID/task/*/comm
/// show, and what imu-bench-power reports wake-ups by). Foundation's `Thread.name` does not reach
/// the kernel on Linux, and `pthread_setname_np` is not visible to Swift here, so this writes
/// /proc/thread-self/comm (Linux ≥ 3.17). Names longer than 15 bytes are cut by the kernel.
package enum ThreadName {
    /// The longest name the kernel keeps: TASK_COMM_LEN (16, include/linux/sched.h) less the NUL.
    static let commBytes = 15

    package static func set(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(commBytes))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
