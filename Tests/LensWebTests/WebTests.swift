import Testing
import HummingbirdTesting
@testable import LensWeb
