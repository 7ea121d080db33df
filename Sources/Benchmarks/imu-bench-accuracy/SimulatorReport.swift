import Foundation
import Pedometer

enum SimulatorReport {
    static func run() {
        print("== simulator: not yet available in this build")
    }
    static func speedCorpus() -> [LabelledRecording] { [] }
}
