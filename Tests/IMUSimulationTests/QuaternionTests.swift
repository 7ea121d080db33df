import Foundation
import Testing
@testable import IMUSimulation

@Suite struct QuaternionTests {
    @Test func rotationsFollowTheRightHandRule() {
        // 90° about z takes x to y; 90° about x takes y to z; 90° about y takes z to x.
        #expect(norm(Quaternion.rotationZ(.pi / 2).rotate(Vector3(1, 0, 0)) - Vector3(0, 1, 0)) < 1e-15)
        #expect(norm(Quaternion.rotationX(.pi / 2).rotate(Vector3(0, 1, 0)) - Vector3(0, 0, 1)) < 1e-15)
        #expect(norm(Quaternion.rotationY(.pi / 2).rotate(Vector3(0, 0, 1)) - Vector3(1, 0, 0)) < 1e-15)
    }

    @Test func productComposesRotations() {
        let a = Quaternion(axis: Vector3(1, 2, 3), angle: 0.7), b = Quaternion(axis: Vector3(-2, 0.5, 1), angle: 1.9)
        let v = Vector3(0.3, -1.2, 2.5)
        #expect(norm((a * b).rotate(v) - a.rotate(b.rotate(v))) < 1e-12)
        #expect(norm(a.inverseRotate(a.rotate(v)) - v) < 1e-12)
    }

    @Test func matrixColumnsRoundTrip() {
        for q in [Quaternion(axis: Vector3(1, 2, 3), angle: 0.7), Quaternion(axis: Vector3(0, 1, 0), angle: 3.1),
                  Quaternion(axis: Vector3(1, 0, 0), angle: -3.0), Quaternion(axis: Vector3(0, 0, 1), angle: 2.9)] {
            let back = Quaternion(columnX: q.rotate(Vector3(1, 0, 0)), columnY: q.rotate(Vector3(0, 1, 0)),
                                  columnZ: q.rotate(Vector3(0, 0, 1)))
            #expect(q.angle(to: back) < 1e-7)
        }
    }

    @Test func rotationVectorAndSlerp() {
        let v = Vector3(0.4, -0.2, 1.1)
        #expect(norm(Quaternion(rotationVector: v).rotationVector - v) < 1e-12)
        let a = Quaternion.rotationZ(0.2), b = Quaternion.rotationZ(1.4)
        #expect(Quaternion.slerp(a, b, 0).angle(to: a) < 1e-7)
        #expect(Quaternion.slerp(a, b, 1).angle(to: b) < 1e-7)
        #expect(Quaternion.slerp(a, b, 0.5).angle(to: .rotationZ(0.8)) < 1e-7)
        #expect(abs(a.angle(to: b) - 1.2) < 1e-12)
    }
}
