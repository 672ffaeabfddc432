import { Body, Controller, Delete, Get, Head, HttpCode, Inject, Param, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ObjectStorageAdapter } from '@stemdeck/platform';
import { CreateSessionBody, JoinSessionBody, PostMessageBody, SetRoleBody } from '@stemdeck/proto';
import type { Request, Response } from 'express';
import { SignedInGuard } from '../auth/signed-in.guard';
import { parseInput } from '../http-input';
import { serveObject } from '../storage/serve-object';
import { mustBeCaller, sessionCallerOf } from './caller';
import { CreateSessionUseCase } from './create-session.usecase';
import { SessionStemsUseCase } from './session-stems.usecase';
import { SessionsClient } from './sessions.client';

export const OWN_SESSIONS_ONLY = 'You can only see your own sessions';
export const JOIN_AS_CALLER = 'You can only join a session as yourself';
export const WRITE_AS_CALLER = 'You can only send messages as yourself';

/** What the REST edge asks the sessions service (the live rooms use the rest of the client). */
export type SessionsRestCalls = Pick<
  SessionsClient,
  'listForUser' | 'access' | 'participants' | 'join' | 'setRole' | 'removeParticipant' | 'listMessages' | 'postMessage'
>;

/**
 * Collaborative sessions over REST, for the signed-in caller: their sessions, making one on their own project,
 * joining, the participants and their roles, the chat, and the host's stems for everyone in the session. A body
 * naming a user must name the caller (403); a session the caller is not in is 404, as if it did not exist.
 */
@Controller('api')
@UseGuards(SignedInGuard)
export class SessionsController {
  constructor(
    @Inject(SessionsClient) private readonly sessions: SessionsRestCalls,
    private readonly createSession: CreateSessionUseCase,
    private readonly sessionStems: SessionStemsUseCase,
    private readonly storage: ObjectStorageAdapter,
  ) {}

  /** The sessions the caller hosts or has joined. */
  @Get('users/:userId/sessions')
  listForUser(@Req() req: Request, @Param('userId') userId: string) {
    const caller = sessionCallerOf(req);
    mustBeCaller(userId, caller, OWN_SESSIONS_ONLY);
    return this.sessions.listForUser(caller.id);
  }

  /** 201 with the session; the caller is its host and first participant. */
  @Post('sessions')
  create(@Req() req: Request, @Body() body: unknown) {
    return this.createSession.execute(sessionCallerOf(req), parseInput(CreateSessionBody, body));
  }

  @Get('sessions/:id')
  async get(@Req() req: Request, @Param('id') id: string) {
    return (await this.sessions.access(sessionCallerOf(req).id, id)).session;
  }

  @Get('sessions/:id/participants')
  participants(@Req() req: Request, @Param('id') id: string) {
    return this.sessions.participants(sessionCallerOf(req).id, id);
  }

  /** 200 with the session and the caller's participant record (a rejoin keeps the role the host gave). */
  @Post('sessions/:id/join')
  @HttpCode(200)
  join(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const caller = sessionCallerOf(req);
    const { userId, role } = parseInput(JoinSessionBody, body);
    mustBeCaller(userId, caller, JOIN_AS_CALLER);
    return this.sessions.join({ userId: caller.id, name: caller.name, sessionId: id, role });
  }

  /** The host makes a participant a collaborator or a viewer. */
  @Patch('sessions/:id/participants/:userId')
  setRole(@Req() req: Request, @Param('id') id: string, @Param('userId') userId: string, @Body() body: unknown) {
    return this.sessions.setRole(sessionCallerOf(req).id, id, userId, parseInput(SetRoleBody, body).role);
  }

  /** The host removes someone, or a participant leaves (themselves); the host leaving ends the session. */
  @Delete('sessions/:id/participants/:userId')
  @HttpCode(204)
  async remove(@Req() req: Request, @Param('id') id: string, @Param('userId') userId: string): Promise<void> {
    await this.sessions.removeParticipant(sessionCallerOf(req).id, id, userId);
  }

  @Get('sessions/:id/messages')
  messages(@Req() req: Request, @Param('id') id: string) {
    return this.sessions.listMessages(sessionCallerOf(req).id, id);
  }

  /** 201 with the stored message (trimmed); 429 when the caller writes faster than the chat allows. */
  @Post('sessions/:id/messages')
  postMessage(@Req() req: Request, @Param('id') id: string, @Body() body: unknown) {
    const caller = sessionCallerOf(req);
    const { userId, message } = parseInput(PostMessageBody, body);
    mustBeCaller(userId, caller, WRITE_AS_CALLER);
    return this.sessions.postMessage({ userId: caller.id, name: caller.name, sessionId: id, message });
  }

  /** The host's project stems in the mixer's shape, each url under this session. */
  @Get('sessions/:id/stems')
  stems(@Req() req: Request, @Param('id') id: string) {
    return this.sessionStems.list(sessionCallerOf(req).id, id);
  }

  /** A session stem's audio with Range (the players seek); only for participants, only the session project's stems. */
  @Get('sessions/:id/stems/:stemId/audio')
  @Head('sessions/:id/stems/:stemId/audio')
  async stemAudio(@Req() req: Request, @Res() res: Response, @Param('id') id: string, @Param('stemId') stemId: string): Promise<void> {
    await serveObject(req, res, this.storage, await this.sessionStems.audio(sessionCallerOf(req).id, id, stemId));
  }
}
