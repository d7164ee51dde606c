package io.topolens.diagnose.rules;

import io.topolens.diagnose.Severity;
import io.topolens.model.NcclWarning;
import io.topolens.model.NcclWarning.Detail.LoaderFailure;
import java.util.List;

/**
 * {@code loader-refused}: the dynamic loader found a library the job needs (libnccl, libcuda,
 * libnvidia-ml) and refused it before NCCL printed anything ({@code error while loading shared
 * libraries: libnccl.so.2: failed to map segment from shared object: Operation not permitted}):
 * each reason said for what it is.
 */
public final class LoaderRefused extends WarningRule {

  public LoaderRefused() {
    super(Severity.ERROR, NcclWarning.Kind.LOADER_REFUSED);
  }

  @Override
  public String id() {
    return "loader-refused";
  }

  @Override
  String title() {
    return "The dynamic loader refused a library the job needs";
  }

  @Override
  String title(List<NcclWarning> hits) {
    LoaderFailure f = first(hits);
    return f == null
        ? title()
        : "The dynamic loader refused "
            + f.library()
            + switch (f.reason()) {
              case NOT_MAPPABLE -> ": it could not map it (a noexec mount?)";
              case WRONG_CLASS -> ": a library of the other word size";
              case UNDEFINED_SYMBOL -> ": a symbol missing (" + f.what() + ")";
              case VERSION_NOT_FOUND -> ": it needs " + f.what();
              case MISSING -> ": not found";
            };
  }

  @Override
  String explanation() {
    return "The program or the framework links or opens the library, and the dynamic loader (ld.so)"
        + " refused it before NCCL could print anything, so the log holds no NCCL line.";
  }

  @Override
  String explanation(List<NcclWarning> hits) {
    LoaderFailure f = first(hits);
    if (f == null) {
      return explanation();
    }
    return explanation()
        + " "
        + switch (f.reason()) {
          case NOT_MAPPABLE ->
              f.library()
                  + " is there, but the loader could not map it into memory: \"failed to map"
                  + " segment from shared object: Operation not permitted\" means the directory that"
                  + " holds it is on a file system mounted without exec (noexec: a bind mount, a"
                  + " volume or a tmpfs, as Google's gIB directory /var/lib/gib can be on its VMs);"
                  + " with \"Cannot allocate memory\" instead, the process's address-space limit"
                  + " (ulimit -v).";
          case WRONG_CLASS ->
              f.library()
                  + " found first on the library path is of the other word size (ELFCLASS32 for a"
                  + " 64-bit program, or another architecture's build).";
          case UNDEFINED_SYMBOL ->
              f.library()
                  + " lacks the symbol "
                  + f.what()
                  + " that the program or another library was linked against: another version of"
                  + " it (or of a library it depends on) was found first.";
          case VERSION_NOT_FOUND ->
              f.library()
                  + " needs "
                  + f.what()
                  + ", which the system's library does not provide: a build for a newer"
                  + " distribution (glibc) or runtime than this host's.";
          case MISSING -> f.library() + " was not found.";
        };
  }

  @Override
  String fix() {
    return "Make the loader find a usable build: ldd on the program or the library shows what it"
        + " resolves; LD_LIBRARY_PATH pointing at the build for this host.";
  }

  @Override
  String fix(List<NcclWarning> hits) {
    LoaderFailure f = first(hits);
    if (f == null) {
      return fix();
    }
    return switch (f.reason()) {
      case NOT_MAPPABLE ->
          "Remount the directory that holds "
              + f.library()
              + " with exec (mount | grep DIR shows noexec; mount --bind DIR DIR then mount -o"
              + " remount,exec DIR, or on Google Cloud's VMs the gIB page's bind-mount of"
              + " /var/lib/gib onto itself), or put the libraries on a file system mounted with"
              + " exec.";
      case WRONG_CLASS ->
          "Put the 64-bit (or this architecture's) "
              + f.library()
              + " first: ldconfig -p | grep "
              + f.library()
              + ", file on each, LD_LIBRARY_PATH without the other build's directory.";
      case VERSION_NOT_FOUND ->
          "Install a build of "
              + f.library()
              + " made for this host's distribution (its package, or the framework's wheel), or"
              + " run in a container of the distribution it was built for.";
      default -> fix();
    };
  }

  private static LoaderFailure first(List<NcclWarning> hits) {
    return hits.stream()
        .map(NcclWarning::detail)
        .filter(LoaderFailure.class::isInstance)
        .map(LoaderFailure.class::cast)
        .findFirst()
        .orElse(null);
  }
}
