#if canImport(Glibc)
import Glibc
#endif
import Foundation
import IMUCore
import IMUCalibration

/// What each fuzz target does with one input: parse it the way the tools do. Any thrown error
/// is an accepted answer; a trap (overflow, out-of-range index, failed precondition) or a
/// round trip that does not hold is a bug, and libFuzzer keeps the input that caused it.
enum FuzzTarget: String, CaseIterable {
    case recording, calibration, profile

    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .recording: Self.recording(bytes)
        case .calibration: Self.calibration(Data(bytes))
        case .profile: Self.profile(Data(bytes))
        }
    }

    /// One unlinked scratch file, reused for every input (rewritten, then read from the start).
    static let scratch: Int32 = {
        var template = Array("/tmp/imu-fuzz-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        precondition(fd >= 0, "cannot create a scratch file in /tmp")
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }()

    /// The recording reader over the input: header, every sample, the end note.
    static func recording(_ bytes: UnsafeRawBufferPointer) {
        let fd = scratch
        precondition(ftruncate(fd, 0) == 0)
        var offset = 0
        while offset < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + offset, bytes.count - offset, off_t(offset))
            precondition(n > 0, "write to the scratch file failed")
            offset += n
        }
        lseek(fd, 0, SEEK_SET)
        guard let reader = try? RecordingReader(descriptor: fd, name: "fuzz.csv") else { return }
        var previous = -Double.infinity
        while true {
            guard let sample = try? reader.next() else { break }
            // The contract the tools rely on: finite, increasing times within the reader's bound.
            precondition(sample.time.isFinite && sample.time > previous && abs(sample.time) <= RecordingReader.largestTime)
            // … and sensor values some sensor can give (RecordingLimits).
            let a = sample.acceleration ?? .zero, w = sample.rotationRate ?? .zero
            precondition([a.x, a.y, a.z].allSatisfy { abs($0) <= RecordingLimits.acceleration }
                         && [w.x, w.y, w.z].allSatisfy { abs($0) <= RecordingLimits.rotationRate }
                         && sample.pressure.map { RecordingLimits.pressure.contains($0) } ?? true
                         && sample.temperature.map { RecordingLimits.temperature.contains($0) } ?? true
                         && (0...RecordingLimits.groundSpeed).contains(sample.gnssSpeed ?? 0))
            previous = sample.time
        }
        _ = reader.endNote
    }

    /// A calibration file: read; when accepted, written and read back to the same calibration.
    static func calibration(_ data: Data) {
        guard let c = try? Calibration(jsonData: data, path: "fuzz.json") else { return }
        let back = try? Calibration(jsonData: Data(c.jsonText(pretty: true).utf8), path: "fuzz.json")
        precondition(back != nil, "an accepted calibration does not read back")
        _ = c.apply(MotionSample(time: 0, acceleration: Vector3(0, 0, 1), rotationRate: .zero))
    }

    /// A walker profile: read; when accepted, written and read back to the same profile.
    static func profile(_ data: Data) {
        guard let p = try? WalkerProfile(jsonData: data, path: "fuzz.json") else { return }
        let back = try? WalkerProfile(jsonData: Data(p.jsonText.utf8), path: "fuzz.json")
        precondition(back == p, "an accepted profile does not read back the same")
        _ = p.summary
    }
}

func complain(_ text: String) { try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8)) }

/// The target libFuzzer runs, from IMU_FUZZ_TARGET (read once, on the first input: globals
/// outside main.swift are initialised lazily).
let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["IMU_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        complain("imu-fuzz: set IMU_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { fuzzTarget.run(UnsafeRawBufferPointer(start: nil, count: 0)); return 0 }
    fuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

