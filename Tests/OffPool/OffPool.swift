import Dispatch
import IMUCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A trait for suites whose tests block (run tools and wait for them, sleep, read pipes): each
/// test runs off the Swift concurrency pool. Swift Testing runs every test, synchronous ones
/// too, as a task on that pool, which is as wide as the machine's cores (two on CI): a test that
/// blocks holds one of its threads, and two starve every other test's tasks (measured: a test
/// that returns at once waited 515 s for a thread in a full `swift test --parallel`, IMUKIT_POOL_CANARY).
/// Under this trait each job of the test's task and of its child tasks runs on a thread of its
/// own (`OwnThread`), so the blocking waits there; `OffPoolGate` keeps how many such tests run
/// at once bounded, as the pool's width did.
public struct OffPool: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Set while a test runs under the trait, so that a nested suite's copy of it does not take
    /// the gate a second time.
    @TaskLocal static var active = false

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil, !Self.active else { return try await function() }
        let limit = test.traits.compactMap { ($0 as? TimeLimitAfterGate)?.limit }.min()
        try await Self.$active.withValue(true) {
            try await withTaskExecutorPreference(ThreadPerJob.shared) {
                try await Self.run(at: OffPoolGate.shared, within: limit, function) { limit in
                    Issue.record("the test ran past its time limit of \(limit) (.timeLimitAfterGate: counted from when it left OffPoolGate)")
                }
            }
        }
    }

    /// Runs `function` once `gate` admits it, and calls `exceeded` if it runs longer than `limit`
    /// from then: the wait at the gate is not counted. As Swift Testing's own limit does,
    /// `function` is then cancelled and still awaited (a blocked test cannot be stopped).
    static func run(at gate: OffPoolGate, within limit: Duration?, _ function: @Sendable () async throws -> Void,
                    exceeded: @Sendable (Duration) -> Void) async throws {
        await gate.enter()
        defer { gate.leave() }
        guard let limit else { return try await function() }
        try await withoutActuallyEscaping(function) { function in
            try await withoutActuallyEscaping(exceeded) { exceeded in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await function() }
                    group.addTask {
                        try? await Task.sleep(for: limit)
                        if !Task.isCancelled { exceeded(limit) }
                    }
                    // The first to end: the test (its error, if any, is the test's), or the limit.
                    try await group.next()
                    group.cancelAll()
                    try await group.waitForAll()
                }
            }
        }
    }
}

/// A test's time limit counted from when `OffPool` admits it, for tests of `.offPool` suites.
/// Swift Testing's `.timeLimit` also counts the test's wait at `OffPoolGate`, which in a full
/// `swift test --parallel` was 365 s: tests failed on their limit alone while they waited for a
/// slot (GPSDConnectDeadlineTests at 1 min, sweep28). Read by `OffPool`, which applies it.
public struct TimeLimitAfterGate: TestTrait {
    public var limit: Duration
}

extension Trait where Self == TimeLimitAfterGate {
    /// Fails the test (an issue) when it runs longer than `limit` after `OffPool`'s gate admitted it.
    public static func timeLimitAfterGate(_ limit: Duration) -> Self { TimeLimitAfterGate(limit: limit) }
}

extension Trait where Self == OffPool {
    /// Runs each test of the suite off the Swift concurrency pool (`OffPool`).
    public static var offPool: OffPool { OffPool() }
}

/// How many `OffPool` tests run at once: twice the cores. Such a test spends its time waiting
/// (sleeps, a daemon's timers, a tool's child process that computes on a core); with no bound
/// every one of them (about 400) would start together and their children would queue for the
/// cores far past their tests' time limits. A test waiting here is suspended, not blocked.
final class OffPoolGate: Sendable {
    static let shared = OffPoolGate(width: 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    private struct State: ~Copyable {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(width: Int) { state = Mutex(State(free: width)) }

    func enter() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { s -> Bool in
                guard s.free > 0 else { s.waiting.append(c); return false }
                s.free -= 1
                return true
            }
            if admitted { c.resume() }
        }
    }

    func leave() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard !s.waiting.isEmpty else { s.free += 1; return nil }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// Runs each job on a new thread: a job may block as long as it likes without holding a pool
/// thread, and the jobs of one test's child tasks still run side by side.
final class ThreadPerJob: TaskExecutor {
    static let shared = ThreadPerJob()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        do {
            try OwnThread.start(name: "imukit-test") { job.runSynchronously(on: executor) }
        } catch {
            // No thread to be had (the thread limit): the pool, rather than never.
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        }
    }
}
