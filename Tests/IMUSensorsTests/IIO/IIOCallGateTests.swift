import Dispatch
import Glibc
import OffPool
import Testing
@testable import IMUSensors

@Suite(.offPool) struct IIOCallGateTests {
    @Test func returnsResultsAndRethrows() throws {
        let gate = IIOCallGate(uri: "ip:test", timeout: 30)
        #expect(try gate.run("adding") { 2 + 2 } == 4)
        #expect(throws: IIOError.self) {
            try gate.run("failing") { throw IIOError.ioFailed(device: "d", what: "w", errno: 5) }
        }
    }

    /// A call that never returns (a dropped link, libiio issue 1359) becomes a timeout error, and
    /// the gate stays broken: later calls fail at once instead of queueing behind the stuck one.
    @Test func hungCallTimesOutAndBreaksTheGate() throws {
        let gate = IIOCallGate(uri: "ip:192.0.2.1", timeout: 0.2)
        let release = DispatchSemaphore(value: 0)
        #expect {
            try gate.run("reading mpu6050") { release.wait() }
        } throws: { error in
            guard let e = error as? IIOError, case let .timedOut(uri, what, _) = e else { return false }
            return uri == "ip:192.0.2.1" && what == "reading mpu6050" && e.exitStatus == .runtimeFailure
        }
        #expect {
            try gate.run("reading again") { 1 }
        } throws: { error in
            guard let e = error as? IIOError, case let .timedOut(_, what, _) = e else { return false }
            return what == "reading mpu6050"  // names the call that is stuck
        }
        release.signal()
    }

    /// The bound is waited in halves: a call that takes longer than one half but less than the
    /// whole bound still returns its result (the kernel ring stops a reader with SIGSTOP for the case
    /// this is for: a process woken long past its deadline).
    @Test func aCallWithinTheBoundReturnsAcrossHalves() throws {
        let gate = IIOCallGate(uri: "ip:test", timeout: 1.0)
        #expect(try gate.run("slow read") { usleep(700_000); return 7 } == 7)
    }
}

@Suite(.offPool) struct IIORateSettingTests {
    @Test func choosesTheSlowestAvailableRateAtOrAboveTheRequest() {
        let lis3dh = Result<String, IIOContext.Errno>.success("1 10 25 50 100 200 400 1600 5000 1344")
        #expect(IIORateSetting.choose(100, lis3dh) == 100)
        #expect(IIORateSetting.choose(60, lis3dh) == 100)
        #expect(IIORateSetting.choose(20_000, lis3dh) == 5000)  // beyond the fastest: the fastest
        let bmi160 = Result<String, IIOContext.Errno>.success("0.78125 1.5625 3.125 6.25 12.5 25")
        #expect(IIORateSetting.choose(5, bmi160) == 6.25)
        #expect(IIORateSetting.choose(100, .failure(IIOContext.Errno(2))) == 100)  // no list: ask for it as is
        #expect(IIORateSetting.text(100) == "100" && IIORateSetting.text(6.25) == "6.25")
        // A rate read from sysfs too large for an Int is written as it is, not converted (it trapped).
        let huge = IIORateSetting.choose(100, .success("1e300"))
        #expect(IIORateSetting.text(huge) == String(huge))
    }
}
