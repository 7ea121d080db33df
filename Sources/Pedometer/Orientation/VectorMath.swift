import Foundation

@inline(__always) func dot(_ a: Vector3, _ b: Vector3) -> Double { (a * b).sum() }

@inline(__always) func length(_ a: Vector3) -> Double { dot(a, a).squareRoot() }

/// Foundation's cosine under a name that a local `cos` cannot shadow.
@inline(__always) func _cos(_ x: Double) -> Double { Foundation.cos(x) }
