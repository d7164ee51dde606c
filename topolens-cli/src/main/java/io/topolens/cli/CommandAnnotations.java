package io.topolens.cli;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;

/**
 * Reads the annotations picocli will read of a command: its class's, its fields' and methods', and
 * those of its mixins and argument groups, recursively. The JDK parses each element's annotations
 * once and keeps them, and makes one proxy class per annotation type (its class-file API,
 * interpreted: most of picocli's start); read here on a second thread, picocli finds them made.
 */
final class CommandAnnotations {
  private CommandAnnotations() {}

  static void read(Class<?> command) {
    for (Class<?> c = command; c != null && c != Object.class; c = c.getSuperclass()) {
      c.getAnnotations();
      for (AnnotatedElement m : c.getDeclaredMethods()) {
        m.getAnnotations();
      }
      for (Field f : c.getDeclaredFields()) {
        f.getAnnotations();
        if (f.isAnnotationPresent(Mixin.class) || f.isAnnotationPresent(ArgGroup.class)) {
          read(f.getType());
        }
      }
    }
  }
}
