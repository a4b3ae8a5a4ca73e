package io.qubiq.sink.mongodb;

import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The documents of one batch that go to one collection, as the write models of one unordered bulk
 * write, with the index each has in the original batch (a bulk write names failed documents by
 * their index in the bulk; the channel needs it in the batch). Immutable once built.
 *
 * @param collection    the collection name
 * @param documents     the documents, in batch order
 * @param batchIndexes  {@code batchIndexes[i]} is the batch index of {@code documents.get(i)}
 */
record CollectionBatch(String collection, List<MongoDocument> documents, int[] batchIndexes) {

    private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);

    /** Splits {@code batch} by collection, in order of first appearance, keeping batch order within each. */
    static List<CollectionBatch> split(List<MongoDocument> batch) {
        String first = batch.get(0).collection();
        boolean single = true;
        for (MongoDocument document : batch) {
            if (!document.collection().equals(first)) {
                single = false;
                break;
            }
        }
        if (single) {
            int[] indexes = new int[batch.size()];
            for (int i = 0; i < indexes.length; i++) {
                indexes[i] = i;
            }
            return List.of(new CollectionBatch(first, batch, indexes));
        }
        Map<String, List<Integer>> byCollection = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            byCollection.computeIfAbsent(batch.get(i).collection(), name -> new ArrayList<>()).add(i);
        }
        List<CollectionBatch> batches = new ArrayList<>(byCollection.size());
        for (Map.Entry<String, List<Integer>> entry : byCollection.entrySet()) {
            List<Integer> positions = entry.getValue();
            List<MongoDocument> documents = new ArrayList<>(positions.size());
            int[] indexes = new int[positions.size()];
            for (int i = 0; i < indexes.length; i++) {
                indexes[i] = positions.get(i);
                documents.add(batch.get(indexes[i]));
            }
            batches.add(new CollectionBatch(entry.getKey(), documents, indexes));
        }
        return batches;
    }

    /** One model per document: an insert, or a replace-with-upsert filtered by the key fields. */
    List<WriteModel<MongoDocument>> models() {
        List<WriteModel<MongoDocument>> models = new ArrayList<>(documents.size());
        for (MongoDocument document : documents) {
            if (document.mode() == MongoWriteMode.INSERT) {
                models.add(new InsertOneModel<>(document));
            } else {
                models.add(new ReplaceOneModel<>(new KeyFilter(document), document, UPSERT));
            }
        }
        return models;
    }
}
