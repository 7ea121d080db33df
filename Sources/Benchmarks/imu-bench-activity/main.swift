import Foundation
import Pedometer

// imu-bench-activity: activity over time and steps during rides (issue 15). Prints figures, never asserts.
JourneyReport.run()
RealRideReport.run()
