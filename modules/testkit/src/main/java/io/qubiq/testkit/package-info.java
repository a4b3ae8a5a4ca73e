/**
 * Test fixtures shared by the modules' tests (test scope only): a scriptable fault-injecting
 * {@link io.qubiq.testkit.ScriptedSink}, a text codec, and an event recorder. Real-server fixtures
 * (QuestDB, PostgreSQL, MQTT, OPC UA, MongoDB) join here as the integrations land.
 */
package io.qubiq.testkit;
