import Foundation
import ServiceLifecycle

/// Prints where the demo serves, once its service group runs: the group traps SIGTERM and
/// SIGINT before it starts its services, so a script that reads the line may signal the
/// demo at once. Its work is done when it has printed (run it with
/// `successTerminationBehavior: .ignore`).
struct Announcement: Service {
    let line: String

    func run() async {
        print(line)
        fflush(nil)  // a script waiting for the port may be reading a pipe or a file
    }
}
