import Foundation
@testable import IMUSimulation

/// Mean of the accelerometer readings of samples with times in `range`.
func meanAcceleration(_ samples: [MotionSample], in range: ClosedRange<Double>) -> Vector3 {
    let picked = samples.filter { range.contains($0.time) }.compactMap(\.acceleration)
    return picked.reduce(Vector3.zero, +) / Double(max(picked.count, 1))
}

/// Mean pressure (hPa) of the barometer readings with times in `range`.
func meanPressure(_ samples: [MotionSample], in range: ClosedRange<Double>) -> Double {
    let picked = samples.filter { range.contains($0.time) }.compactMap(\.pressure)
    return picked.reduce(0, +) / Double(max(picked.count, 1))
}

func norm(_ v: Vector3) -> Double { (v * v).sum().squareRoot() }

func scenario(_ name: String) -> Scenario {
    guard let s = Scenario.named(name) else { fatalError("no scenario \(name)") }
    return s
}

func options(_ change: (inout SimulationOptions) -> Void) -> SimulationOptions {
    var o = SimulationOptions()
    change(&o)
    return o
}

func idealOptions(_ change: (inout SimulationOptions) -> Void = { _ in }) -> SimulationOptions {
    var o = SimulationOptions.ideal
    change(&o)
    return o
}
