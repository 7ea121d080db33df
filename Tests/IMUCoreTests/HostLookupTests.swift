import Dispatch
import OffPool
import Synchronization
import Testing
@testable import IMUCore

/// A host's lookup within the connection's deadline (`HostLookup`, `ConnectOutcome.resolve`):
/// getaddrinfo blocked for as long as the resolver liked (resolv.conf's timeouts, 30 s by
/// default, on a DNS server that never answers) while the connection that followed had 3 s.
/// The lookup is injected: a slow resolver of the test's own. (ToolsTests' DNSDeadlineTests has
/// a real one: a DNS server that never answers, in a private network namespace.)
@Suite(.offPool) struct HostLookupTests {
    /// How many lookups ran, and a gate that holds them until the test opens it.
    final class SlowResolver: Sendable {
        let calls = Mutex(0)
        let open = DispatchSemaphore(value: 0)
        let address = ResolvedAddress("192.0.2.7", port: 2947)!

        func lookup(_ host: String, _ port: String) -> HostLookup.Answer {
            calls.withLock { $0 += 1 }
            open.wait()
            open.signal()   // every later lookup goes through too
            return .success([address])
        }
    }

    /// A resolver that never answers: the failure comes at the deadline, naming the host, the
    /// deadline and the fix, and says it timed out (not that the name has no address).
    @Test func aLookupWithNoAnswerEndsAtTheDeadline() {
        let resolver = SlowResolver()
        defer { resolver.open.signal() }
        let start = BootClock.nowSeconds()
        let answer = HostLookup.addresses(host: "never.test", port: "2947", within: ConnectOutcome.timeout, lookup: resolver.lookup)
        let took = BootClock.nowSeconds() - start
        // 1 s above the deadline: a loaded machine's scheduling, not a second wait.
        #expect(took >= ConnectOutcome.timeout - 0.01 && took < ConnectOutcome.timeout + 1, "took \(took) s")
        guard case let .failure(failure) = answer else { Issue.record("\(answer)"); return }
        #expect(failure.timedOut)
        #expect(failure.reason == "the lookup of never.test found no address within 3 s: the resolver did not answer "
                + "(DNS: the nameserver lines of /etc/resolv.conf); fix: check DNS, or give the host's address instead of its name")
    }

    /// A retry while the late lookup still runs waits for it rather than starting another (a
    /// retry every 2 s would pile up threads), and gets its answer when it comes. Once taken, the
    /// next lookup asks the resolver again.
    @Test func aRetryWaitsForTheLookupInFlight() {
        let resolver = SlowResolver()
        let first = HostLookup.addresses(host: "late.test", port: "1883", within: 0.2, lookup: resolver.lookup)
        guard case let .failure(failure) = first, failure.timedOut else { Issue.record("\(first)"); return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { resolver.open.signal() }
        let start = BootClock.nowSeconds()
        let retry = HostLookup.addresses(host: "late.test", port: "1883", within: 5, lookup: resolver.lookup)
        #expect(BootClock.nowSeconds() - start < 2, "waited past the late answer")
        #expect((try? retry.get()) == [resolver.address], "\(retry)")
        #expect(resolver.calls.withLock { $0 } == 1)
        _ = HostLookup.addresses(host: "late.test", port: "1883", within: 5, lookup: resolver.lookup)
        #expect(resolver.calls.withLock { $0 } == 2)
    }

    /// A real lookup without DNS: an address and localhost come back at once (/etc/hosts).
    @Test func addressesAndLocalhostResolveAtOnce() {
        for host in ["127.0.0.1", "::1", "localhost"] {
            let start = BootClock.nowSeconds()
            let answer = ConnectOutcome.resolve(host: host, port: "2947")
            #expect(BootClock.nowSeconds() - start < 1)
            #expect(!((try? answer.get()) ?? []).isEmpty, "\(host): \(answer)")
        }
    }
}
