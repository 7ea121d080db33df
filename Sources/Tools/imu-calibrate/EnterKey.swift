#if canImport(Glibc)
import Glibc
#endif
import IMUCore
import Synchronization

/// Counts Enter presses on a terminal's standard input, read on a thread of its own so the
/// sample loop never blocks on the keyboard. Does nothing when standard input is not a terminal.
final class EnterKey: Sendable {
    private let presses = Atomic<Int>(0)

    /// Throws when the system gives no thread for it.
    init() throws {
        guard isatty(STDIN_FILENO) == 1 else { return }
        try OwnThread.start(name: "imu-enter-key") { [self] in
            while readLine() != nil { self.presses.add(1, ordering: .relaxed) }
        }
    }

    /// True once per press since the last call.
    func takePress() -> Bool {
        presses.exchange(0, ordering: .relaxed) > 0
    }
}
