import Glibc

// Arguments that are not valid UTF-8 are refused, not repaired: a title must be the text the user meant.
let invalidArgument = (1..<Int(CommandLine.argc)).first { index in
    CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
}
// What is process-wide is set here only: tests run commands inside their own process.
KeptUntilExit.isEnabled = true
Allocator.tuneForOneCommand()
exit(App.main(Array(CommandLine.arguments.dropFirst()), invalidArgument: invalidArgument, surroundings: .process))
