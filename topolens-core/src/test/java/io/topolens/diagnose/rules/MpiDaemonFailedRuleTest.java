package io.topolens.diagnose.rules;

import static io.topolens.diagnose.rules.Logs.error;
import static io.topolens.diagnose.rules.Logs.given;

import io.topolens.diagnose.rules.Logs.Case;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Open MPI's runtime could not start, or lost, its daemon on another node. */
class MpiDaemonFailedRuleTest {

  static Stream<Case> cases() {
    return Stream.of(
        given(
                "horovodrun's ssh check, the raise its traceback quotes left out"
                    + " (https://github.com/horovod/horovod/issues/2803)",
                """
                Checking ssh on all remote hosts.
                ssh not successful for host xxxx:
                ssh: connect to host xxxx port 12345: Connection timed out
                    raise RuntimeError('could not connect to some hosts via ssh')
                RuntimeError: could not connect to some hosts via ssh
                """)
            .expect(
                error("The launcher could not reach a node over ssh (pdsh, horovodrun)")
                    .at("a.log:2", "a.log:5")),
        given(
                "pdsh (DeepSpeed's launcher for several nodes) after the node refused the host key"
                    + " (pdsh's rcmd/ssh module; the pair of lines as cluster tools' docs quote it)",
                """
                node2: Host key verification failed.
                pdsh@node1: node2: ssh exited with exit code 255
                """)
            .expect(
                error(
                        "The launcher could not reach a node over ssh (pdsh, horovodrun)",
                        "ssh NODE true")
                    .at("a.log:2")),
        given(
                "nccl-tests over two nodes, ssh refused on the worker"
                    + " (https://github.com/NVIDIA/nccl-tests/issues/299)",
                """
                ssh: connect to host (worker_ip) port 22: Connection refused
                --------------------------------------------------------------------------
                PRTE has lost communication with a remote daemon.

                  HNP daemon   : [prterun-yj-videogen-multinode-job-master-0-34@0,0] on node yj-videogen-multinode-job-master-0
                  Remote daemon: [prterun-yj-videogen-multinode-job-master-0-34@0,1] on node (worker_ip)

                This is usually due to either a failure of the TCP network
                connection to the node, or possibly an internal failure of
                the daemon itself. We cannot recover from this failure, and
                therefore will terminate the job.
                """)
            .expect(
                error(
                        "mpirun lost or could not start its daemon on another node",
                        "has lost communication with a remote daemon",
                        "oob_tcp_if_include")
                    .lacks("orted: command not found")
                    .at("a.log:3")),
        given(
                "ORTE before Open MPI 5 at scale (https://github.com/openpmix/prrte/issues/681"
                    + " quotes the same text from PRRTE)",
                """
                ORTE has lost communication with a remote daemon.
                """)
            .expect(error("Remote daemon").at("a.log:1")),
        given(
                "a daemon that never started: orted not in the remote PATH (Open MPI users' list,"
                    + " ORTE's help text)",
                """
                bash: orted: command not found
                --------------------------------------------------------------------------
                ORTE was unable to reliably start one or more daemons.
                This usually is caused by:
                """)
            .expect(error("orted: command not found", "--prefix").at("a.log:3")),
        given(
                "a daemon that could not call back (ORTE's help text)",
                """
                An ORTE daemon has unexpectedly failed after launch and before communicating back to mpirun. This could be caused by a number of factors, including an inability to create a connection back to mpirun due to a lack of common network interfaces and/or no route found between them.
                """)
            .expect(
                error("could not open its TCP connection back", "oob_tcp_if_include")
                    .at("a.log:1")),
        given(
                "DeepSpeed's runner could not ssh to its hostfile's host"
                    + " (https://github.com/hpcac/2023-APAC-HPC-AI/issues/1)",
                """
                subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no gadi-gpu-v100-0011 hostname' returned non-zero exit status 255.

                During handling of the above exception, another exception occurred:

                RuntimeError: Using hostfile at /home/552/dz9214/hostfile but host=gadi-gpu-v100-0011 was not reachable via ssh. If you are running with a single node please remove /home/552/dz9214/hostfile or setup passwordless ssh.
                """)
            .expect(
                error(
                        "DeepSpeed's launcher could not reach a host of its hostfile over ssh",
                        "PasswordAuthentication=no HOST hostname",
                        "--no_ssh_check")
                    .lacks("orted", "mpirun starts a daemon")
                    .at("a.log:1", "a.log:5")),
        given(
                "the same check failing as Python's traceback reports it, cut before the runner's"
                    + " words (https://github.com/deepspeedai/DeepSpeed/issues/4907)",
                """
                deepspeed --num_gpus 2 --num_nodes 2 --master_addr 192.168.3.100 --hostfile hostfile cifar10_deepspeed.py --deepspeed_config ds_config.json
                Traceback (most recent call last):
                  File "/root/anaconda3/envs/DS/lib/python3.9/site-packages/deepspeed/launcher/runner.py", line 437, in main
                    subprocess.check_call(ssh_check_cmd, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL, shell=True)
                  File "/root/anaconda3/envs/DS/lib/python3.9/subprocess.py", line 373, in check_call
                    raise CalledProcessError(retcode, cmd)
                subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no 192.168.3.100 hostname' returned non-zero exit status 255.
                """)
            .expect(
                error(
                        "DeepSpeed's launcher could not reach a host of its hostfile over ssh",
                        "PasswordAuthentication=no HOST hostname",
                        "--no_ssh_check")
                    .lacks("orted", "mpirun starts a daemon")
                    .at("a.log:7")),
        given(
            "the check's command where it succeeded, and another ssh command that failed, are not"
                + " the check failing",
            """
            [2024-01-06 11:41:34,489] [INFO] [runner.py:437:main] ssh -o PasswordAuthentication=no 192.168.3.100 hostname
            subprocess.CalledProcessError: Command 'ssh node2 nvidia-smi' returned non-zero exit status 255.
            """),
        given(
            "the phrase in prose, without a hostfile, is not DeepSpeed's check (a project README's"
                + " sentence found by the index's text search)",
            """
            Home Assistant started beeing offline from time to time. Where the device was not reachable via ssh or the home assistant app.
            """),
        given(
            "prose about daemons is not the failure",
            """
            If you run very large numbers of MPI processes you may lose communication with the daemons; try --mca routed binomial.
            """),
        given(
            "a rank that exited is mpirun's report, not a daemon's",
            """
            mpirun noticed that process rank 1 with PID 3512 on node n2 exited on signal 11 (Segmentation fault).
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Logs.check(new MpiDaemonFailed(), "mpi-daemon-failed", c);
  }
}
