import LensCore
import Testing

struct RetryPolicyTests {
    @Test(arguments: [
        (RetryPolicy.daemon, [2.0, 8, 32, 128, 512]),
        (RetryPolicy.interactive, [0.5, 1, 2]),
        (RetryPolicy(firstDelay: 1, factor: 1, maximumAttempts: 3), [1.0, 1]),
    ])
    func delaysGrowUntilTheLastAttempt(policy: RetryPolicy, delays: [Double]) {
        let observed = (1...policy.maximumAttempts).map { policy.delay(afterAttempt: $0) }
        #expect(observed == delays.map(Optional.some) + [nil])
    }

    @Test func oneAttemptNeverRetries() {
        #expect(RetryPolicy(firstDelay: 5, factor: 2, maximumAttempts: 1).delay(afterAttempt: 1) == nil)
    }
}
