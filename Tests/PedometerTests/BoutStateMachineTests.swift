import Testing
@testable import Pedometer

/// The bout state machine on its own: window facts in, actions out (docs/steps.md).
@Suite struct BoutStateMachineTests {
    private let rules = BoutRules()
    private func gait(regularity: Double = 0.8, weak: Bool = false, walkInVehicle: Bool = true,
                      movesHorizontally: Bool = true) -> BoutStateMachine.Window {
        var w = BoutStateMachine.Window(verdict: .gait)
        w.regularity = regularity
        w.weak = weak
        w.walkInVehicle = walkInVehicle
        w.movesLikeSteps = movesHorizontally
        return w
    }

    @Test func oneClearlyRegularStrongWindowOpensAWalk() {
        var m = BoutStateMachine()
        #expect(m.next(gait(), context: .init(), rules: rules) == .open)
        #expect(m.next(gait(), context: .init(), rules: rules) == .count)
        #expect(m.state == .walking(misses: 0))
    }

    @Test func weakOrMarginalGaitNeedsTwoWindows() {
        var m = BoutStateMachine()
        #expect(m.next(gait(weak: true), context: .init(), rules: rules) == .none)
        #expect(m.next(gait(weak: true), context: .init(), rules: rules) == .open)
        var marginal = BoutStateMachine()
        #expect(marginal.next(gait(regularity: 0.5), context: .init(), rules: rules) == .none)
        #expect(marginal.next(gait(regularity: 0.5), context: .init(), rules: rules) == .open)
    }

    /// A rhythm that barely moves the phone horizontally (a soft bus's vertical bounce), weak or
    /// not, opens nothing however long it lasts; a window that moves like steps opens the walk.
    @Test func gaitWithoutHorizontalMotionOpensNothing() {
        var m = BoutStateMachine()
        for weak in [true, false] {
            for _ in 0..<10 {
                #expect(m.next(gait(regularity: 0.9, weak: weak, movesHorizontally: false), context: .init(), rules: rules) == .none)
            }
        }
        #expect(m.next(gait(regularity: 0.9), context: .init(), rules: rules) == .open)
    }

    /// In a vehicle: two gait windows in a row, the second clearly regular, and a walk's motion.
    @Test func aRideNeedsTheStricterStart() {
        let ride = BoutStateMachine.Context(inVehicle: true)
        var bounce = BoutStateMachine()
        for _ in 0..<10 { #expect(bounce.next(gait(walkInVehicle: false), context: ride, rules: rules) == .none) }
        var walkOff = BoutStateMachine()
        #expect(walkOff.next(gait(), context: ride, rules: rules) == .none)
        #expect(walkOff.next(gait(), context: ride, rules: rules) == .open)
    }

    /// A second of stillness ends a walk (`BoutRules.pauseDeviation`): a window that saw it
    /// closes the walk even while its older part still reads as the walk's rhythm, and a turn is
    /// not bridged into it; a gait window whose newest second is still opens nothing.
    @Test func aPauseEndsAWalkAndOpensNone() {
        var still = gait()
        still.stoodStill = true
        var m = BoutStateMachine()
        #expect(m.next(still, context: .init(), rules: rules) == .none)
        #expect(m.next(gait(), context: .init(), rules: rules) == .open)
        #expect(m.next(still, context: .init(), rules: rules) == .close)
        #expect(m.state == .idle)
        var turn = BoutStateMachine()
        _ = turn.next(gait(), context: .init(), rules: rules)
        var miss = BoutStateMachine.Window(verdict: .noRhythm)
        miss.energyHolds = true
        miss.stoodStill = true
        #expect(turn.next(miss, context: .init(), rules: rules) == .close)
    }

    @Test func aTurnIsBridgedForTwoWindowsWhileTheEnergyHolds() {
        var m = BoutStateMachine()
        _ = m.next(gait(), context: .init(), rules: rules)
        var miss = BoutStateMachine.Window(verdict: .noRhythm)
        miss.energyHolds = true
        #expect(m.next(miss, context: .init(), rules: rules) == .bridge)
        #expect(m.next(miss, context: .init(), rules: rules) == .bridge)
        #expect(m.next(miss, context: .init(), rules: rules) == .close)
        #expect(m.state == .idle)
        var quiet = BoutStateMachine()
        _ = quiet.next(gait(), context: .init(), rules: rules)
        #expect(quiet.next(.init(verdict: .noRhythm), context: .init(), rules: rules) == .close)
    }

    @Test func wavingClosesAWalkWithoutItsTail() {
        var m = BoutStateMachine()
        _ = m.next(gait(), context: .init(), rules: rules)
        var waving = gait()
        waving.newestPureSine = true
        #expect(m.next(waving, context: .init(), rules: rules) == .closeWithoutTail)
        var n = BoutStateMachine()
        _ = n.next(gait(), context: .init(), rules: rules)
        var sine = BoutStateMachine.Window(verdict: .wrongShape)
        sine.pureSine = true
        #expect(n.next(sine, context: .init(), rules: rules) == .closeWithoutTail)
    }

    /// The explicit "not walking" input (for a stage that knows the user cycles): no walk opens,
    /// an open one closes where counting stopped.
    @Test func notWalkingSuppressesWalks() {
        let off = BoutStateMachine.Context(notWalking: true)
        var m = BoutStateMachine()
        for _ in 0..<5 { #expect(m.next(gait(), context: off, rules: rules) == .none) }
        _ = m.next(gait(), context: .init(), rules: rules)
        #expect(m.isWalking)
        #expect(m.next(gait(), context: off, rules: rules) == .closeWithoutTail)
        #expect(!m.isWalking)
    }
}
