package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NpyFileTest {
    @TempDir
    Path dir;

    @Test
    void readsRowsOfAnyShapeAndTypeByPositionWithTheirLabels() throws Exception {
        INDArray images = Nd4j.arange(0, 5 * 2 * 3).castTo(DataType.FLOAT).reshape(5, 2, 3);
        Path x = write("x.npy", images);
        Path y = write("y.npy", Nd4j.createFromArray(2L, 0L, 1L, 2L, 0L));
        NpyFile npy = NpyFile.open(x, y, 0);

        assertThat(npy.size()).isEqualTo(5);
        assertThat(npy.featureSize()).isEqualTo(6);
        assertThat(npy.numClasses()).isEqualTo(3);
        LabeledData batch = npy.gather(new int[]{4, 1, 1});
        assertThat(batch.features().toFloatMatrix()).isEqualTo(new float[][]{
                {24, 25, 26, 27, 28, 29}, {6, 7, 8, 9, 10, 11}, {6, 7, 8, 9, 10, 11}});
        assertThat(batch.labels().toFloatMatrix()).isEqualTo(new float[][]{{1, 0, 0}, {1, 0, 0}, {1, 0, 0}});

        Path bytes = raw("u8.npy", "|u1", "(2, 2)", new byte[]{0, (byte) 255, 7, 1});
        Path labels = write("l.npy", Nd4j.createFromArray(1, 0));
        assertThat(NpyFile.open(bytes, labels, 4).rows(0, 2).features().toFloatMatrix())
                .isEqualTo(new float[][]{{0, 255}, {7, 1}});
    }

    @Test
    void aBadFileOrValueNamesTheFileAndTheRow() throws Exception {
        Path y3 = write("y3.npy", Nd4j.createFromArray(0L, 1L, 1L));
        Path x2 = write("x2.npy", Nd4j.rand(DataType.FLOAT, 2, 4));
        expectBad(x2, y3, 0, "x2.npy has 2 rows but");
        INDArray nan = Nd4j.rand(DataType.DOUBLE, 3, 4);
        nan.putScalar(2, 1, Double.NaN);
        expectBad(write("nan.npy", nan), y3, 0, "nan.npy row 2 column 1: NaN is not a finite float32 number");
        Path x3 = write("x3.npy", Nd4j.rand(DataType.FLOAT, 3, 4));
        expectBad(x3, write("half.npy", Nd4j.createFromArray(0.0, 1.5, 1.0)), 0,
                "half.npy row 1: label 1.5 is not a class number");
        expectBad(x3, y3, 1 + 0, "y3.npy row 1: label 1 is outside the 1 classes");
        expectBad(x3, write("y2d.npy", Nd4j.zeros(DataType.INT64, 3, 2)), 0, "labels are a vector [n]");
        expectBad(Files.writeString(dir.resolve("text.npy"), "not numpy"), y3, 0, "is not a NumPy .npy file");
        expectBad(raw("f.npy", "<f4", "(3, 1)", new byte[12], true), y3, 0, "is stored in Fortran order");
        expectBad(raw("c.npy", "<c8", "(3, 1)", new byte[24]), y3, 0, "holds '<c8'; accepted element types");
        expectBad(raw("short.npy", "<f4", "(3, 4)", new byte[8]), y3, 0, "is shorter");
        expectBad(dir.resolve("absent.npy"), y3, 0, "no .npy file at");
    }

    private Path write(String name, INDArray array) throws Exception {
        Path file = dir.resolve(name);
        Nd4j.writeAsNumpy(array, file.toFile());
        return file;
    }

    private Path raw(String name, String descr, String shape, byte[] data) throws Exception {
        return raw(name, descr, shape, data, false);
    }

    /** A version 1.0 .npy file written by hand. */
    private Path raw(String name, String descr, String shape, byte[] data, boolean fortran) throws Exception {
        StringBuilder dict = new StringBuilder("{'descr': '" + descr + "', 'fortran_order': "
                + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }");
        while ((10 + dict.length() + 1) % 64 != 0) {
            dict.append(' ');
        }
        dict.append('\n');
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        out.write(ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN).putShort((short) dict.length()).array());
        out.write(dict.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(data);
        return Files.write(dir.resolve(name), out.toByteArray());
    }

    private static void expectBad(Path x, Path y, int classes, String message) {
        assertThatThrownBy(() -> NpyFile.open(x, y, classes))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining(message);
    }
}
