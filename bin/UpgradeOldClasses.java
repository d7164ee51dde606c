import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites the class files older than Java 6 (version 50) in a jar as Java 8 class files, with the
 * stack maps the JDK's ClassFile API computes, in place. picocli ships Java 5 class files: the JVM
 * verifies those with its old type-inferring verifier and the ahead-of-time cache cannot hold them
 * once linked ("Skipping picocli/...: Old class has been linked"), so every command loaded and
 * verified picocli's 200 classes from the jar (docs/performance.md). The code is the same; only the
 * version and the stack maps change. Run by topolens-cli's package phase before the AOT cache is
 * made: java bin/UpgradeOldClasses.java JAR
 */
public final class UpgradeOldClasses {
  public static void main(String[] args) throws IOException {
    Path jar = Path.of(args[0]);
    Path tmp = jar.resolveSibling(jar.getFileName() + ".upgraded");
    try (URLClassLoader loader =
            new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        ZipInputStream in = new ZipInputStream(Files.newInputStream(jar));
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(tmp))) {
      ClassFile cf =
          ClassFile.of(
              ClassFile.ClassHierarchyResolverOption.of(
                  ClassHierarchyResolver.defaultResolver()
                      .orElse(ClassHierarchyResolver.ofResourceParsing(loader))));
      ClassTransform upgrade =
          ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
              .andThen(
                  (cb, e) -> {
                    if (e instanceof ClassFileVersion) {
                      cb.withVersion(ClassFile.JAVA_8_VERSION, 0);
                    } else {
                      cb.with(e);
                    }
                  });
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        byte[] b = in.readAllBytes();
        if (e.getName().endsWith(".class") && b.length > 8 && version(b) < ClassFile.JAVA_6_VERSION) {
          b = cf.transformClass(cf.parse(b), upgrade);
        }
        ZipEntry copy = new ZipEntry(e.getName());
        copy.setTime(e.getTime());
        out.putNextEntry(copy);
        out.write(b);
        out.closeEntry();
      }
    }
    Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING);
  }

  private static int version(byte[] b) {
    return (b[6] & 0xff) << 8 | (b[7] & 0xff);
  }
}
