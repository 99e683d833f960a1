/** What every role prints when it cannot start: one line naming the property and the accepted values. */
package io.jvmps.common.startup;
