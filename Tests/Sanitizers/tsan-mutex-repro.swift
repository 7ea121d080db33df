// ThreadSanitizer and Synchronization.Mutex on Linux (docs/testing-fuzz.md): four threads append
// to one array, every access inside the same Mutex.withLock. No access is unprotected, yet
// `swiftc -sanitize=thread -O tsan-mutex-repro.swift && ./tsan-mutex-repro` reports a
// "Swift access race" in every run on this toolchain (Swift 6.3.1, x86_64 Linux): the contended
// lock is taken through a futex in the uninstrumented standard library, which TSan does not see.
// Not part of the package: a reproducer to run by hand, and the reason for tsan.supp.
import Glibc
import Synchronization

final class Shared: Sendable { let items = Mutex<[Int]>([]) }
let shared = Shared()
var threads: [pthread_t] = []
for _ in 0..<4 {
    var thread = pthread_t()
    pthread_create(&thread, nil, { _ in
        for i in 0..<200_000 {
            shared.items.withLock { items in
                items.append(i)
                if items.count > 64 { items.removeAll() }
            }
        }
        return nil
    }, nil)
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print("items left:", shared.items.withLock { $0.count })
