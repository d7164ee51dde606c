package io.topolens.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A docker or mpirun command pasted beside a log is read as a launch: docker's option that gives
 * the container /dev/shm, mpirun's hosts one per slot (sources in nccl/failures/README.md).
 */
class LaunchLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`docker run --gpus all --rm -it video-diffusion /bin/bash` | -",
        "`docker run --gpus all --rm --shm-size=1g -it video-diffusion /bin/bash` | --shm-size=1g",
        "`docker run -it --name zhaomegatron -v /jfs/yuzhe.zhao:/home/zyz --gpus all nvcr.io/nvidia/pytorch:23.09-py3` | -",
        "`$ docker run --gpus all -it --rm --ipc=host nvcr.io/nvidia/pytorch:24.01-py3` | --ipc=host",
        "`nvidia-docker run --shm-size 8g -it image bash` | --shm-size 8g",
        "`sudo docker run --ipc host -it image` | --ipc host",
        "`docker run -v /dev/shm:/dev/shm --gpus all image` | -v /dev/shm:/dev/shm",
      })
  void readsHowDockerGaveShm(String line, String shm) {
    NcclEvent e = LaunchLine.parse(line);
    assertThat(e)
        .isEqualTo(
            new NcclEvent.Launch("docker", List.of(), false, shm.equals("-") ? "" : shm, 0, ""));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`mpirun -np 2 -H 192.168.2.249:1,192.168.2.243:1 -bind-to none -map-by slot python3 train.py`"
            + " | 192.168.2.249 192.168.2.243 | false | 2 | -",
        "`mpirun -np 3 --host a:2,b python train.py` | a a b | false | 3 | -",
        "`mpirun -np 4 -host n1,n2 --map-by node ./all_reduce_perf` | n1 n2 | true | 4 | -",
        "`mpiexec -n 16 -hosts n1,n2 ./train` | n1 n2 | false | 16 | -",
        // https://github.com/horovod/horovod/issues/3618 (Open MPI's mpiexec; -N is per node)
        "`mpiexec -v -N 2 -bind-to none --oversubscribe -x NCCL_DEBUG=TRACE -x LD_LIBRARY_PATH -x PATH -mca pml ob1 -mca btl ^openib python code/test.py`"
            + " | - | false | 0 | -",
        "`mpirun -np 2 -pernode -hostfile host.txt -x NCCL_SOCKET_IFNAME=enp6s0 ./all_reduce_perf` | - | false | 2 | host.txt",
        // nccl-tests issue 27: no -np before the host list, nor a count after it
        "`mpirun -H 10.251.154.148,10.251.154.143 -np 2 ./all_reduce_perf -b 8 -e 128M -f 128 -g 2`"
            + " | 10.251.154.148 10.251.154.143 | false | 2 | -",
        "`mpirun -H 10.251.154.148 ./all_reduce_perf -b 8 -e 128M -f 128 -g 2` | 10.251.154.148 | false | 0 | -",
        "`mpirun --np=8 --hostfile hosts ./all_reduce_perf` | - | false | 8 | hosts",
        "`mpirun -np x ./all_reduce_perf` | - | false | 0 | -",
      })
  void readsMpirunHosts(String line, String slots, boolean byNode, int processes, String hostfile) {
    NcclEvent e = LaunchLine.parse(line);
    List<String> expected = slots.equals("-") ? List.of() : Arrays.asList(slots.split(" "));
    assertThat(e)
        .isEqualTo(
            new NcclEvent.Launch(
                "mpirun", expected, byNode, "", processes, hostfile.equals("-") ? "" : hostfile));
  }

  /**
   * A command continued over lines with {@code \\} is read as one, on its first line
   * (https://github.com/horovod/horovod/issues/110); its lines are still read on their own.
   */
  @org.junit.jupiter.api.Test
  void readsACommandContinuedOverLines() {
    String log =
        """
        mpirun -np 2 \\
            -H 192.168.2.249:1,192.168.2.243:1 \\
            -bind-to none -map-by slot \\
            -x NCCL_DEBUG=INFO -x LD_LIBRARY_PATH \\
            /home/dl2017/Desktop/dp/bin/python3 keras_mnist_advanced.py
        mtk:2521:2528 [0] INFO 0 -> 1 via P2P/IPC
        """;
    byte[] b = log.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    BlockParser.Result r = BlockParser.parse(b, b.length);
    assertThat(r.parsed())
        .filteredOn(p -> p.event() instanceof NcclEvent.Launch)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.line()).isEqualTo(1);
              assertThat(p.event())
                  .isEqualTo(
                      new NcclEvent.Launch(
                          "mpirun", List.of("192.168.2.249", "192.168.2.243"), false, "", 2, ""));
            });
    assertThat(r.parsed())
        .anySatisfy(p -> assertThat(p.event()).isInstanceOf(NcclEvent.Connection.class));
  }

  /**
   * An mpiexec line is found by the line filter on its own: {@code mpiexec -} is one of its
   * needles, as {@code mpirun -} is, so a launch line that holds no other needle (no {@code NCCL})
   * is read.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`mpiexec -n 16 -hosts n1,n2 ./train` | n1 n2 | 16",
        "`mpiexec -v -N 2 -bind-to none --oversubscribe -x NCCL_DEBUG=TRACE -x LD_LIBRARY_PATH -x PATH -mca pml ob1 -mca btl ^openib python code/test.py`"
            + " | - | 0",
      })
  void readsAnMpiexecLineThroughTheFilter(String line, String slots, int processes) {
    String log = line + "\n# Out of bounds values : 0 OK\n";
    byte[] b = log.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    BlockParser.Result r = BlockParser.parse(b, b.length);
    List<String> expected = slots.equals("-") ? List.of() : Arrays.asList(slots.split(" "));
    assertThat(r.parsed())
        .filteredOn(p -> p.event() instanceof NcclEvent.Launch)
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.event())
                    .isEqualTo(new NcclEvent.Launch("mpirun", expected, false, "", processes, "")));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // Open MPI's own report, and prose about the commands, are not a launch
        "`mpirun noticed that process rank 1 with PID 0 on node n2 exited on signal 9 (Killed).`",
        "`I ran docker run and it failed`",
        "`Primary job  terminated normally, but 1 process returned a non-zero exit code. Per user-direction, the job has been aborted.`",
      })
  void proseIsNoLaunch(String line) {
    assertThat(LaunchLine.parse(line)).isNull();
  }
}
