package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * User-buffer registration and deregistration (register/*.cc and the transports). Sources of the
 * texts: nccl/messages/README.md.
 */
class BufferRegistrationFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "NVLS deregistration (register/register.cc:81, 2.28.3): not nvls-error's",
                """
                node-a:4021:4090 [3] register/register.cc:81 NCCL WARN rank 3 deregister NVLS buffer 0x7f2a00000000 dev 3 ucsize 2097152 mcsize 2097152 failed
                """)
            .expect(
                error("could not undo the registration", "NCCL_LOCAL_REGISTER=0").at("a.log:1")),
        given(
                "a buffer NCCL holds no registration for, and COLLNET (register/register.cc:140, :87, 2.28.3)",
                """
                node-a:4021:4090 [3] register/register.cc:140 NCCL WARN Deregister: Could not find handle
                node-a:4021:4090 [3] register/register.cc:87 NCCL WARN rank 3 deregister COLLNET buffer handle 0x5561 proxy rank 3 failed
                """)
            .expect(error("deregistered twice").at("a.log:1", "a.log:2")),
        given(
            "a failed registration is an INFO line: NCCL copies instead (transport/net.cc, 2.28.3)",
            """
            node-a:4021:4090 [3] NCCL INFO rank 3 failed to NET register userbuff 0x7f2a00000000 buffSize 1048576 GDR flag 1
            """),
        given(
            "an NVLS bind failure is nvls-error's",
            """
            node-a:4021:4090 [3] transport/nvls.cc:284 NCCL WARN Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2147483648 : CUDA error 401 'the operation cannot be performed in the present state'.
            """),
        given(
            "the INFO line of a successful registration",
            """
            node-a:4021:4090 [3] NCCL INFO rank 3 - NET register userbuff 0x7f2a00000000 (handle 0x5561), buffSize 1048576
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new BufferRegistrationFailed(), "buffer-registration-failed", c);
  }
}
