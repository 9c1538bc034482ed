import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam,
  ApiTags, ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, nextCursorHeaderDoc, sendPage, SignedIn, type SignedInCaller } from '@timeliner/platform';
import { PageQueryDto } from '../pagination/page-queries.js';
import { PostBookmarkStatusDto, PostCommentContentDto, PostCommentDto, PostContentDto, PostDto, PostLikeStatusDto } from './post.dto.js';
import { PostService } from './post.service.js';

const POST_ID = { name: 'id', description: 'The post', format: 'uuid' } as const;
const NOT_FOUND = { description: 'Post not found' } as const;

@ApiTags('posts')
@Controller('api/posts')
export class PostController {
  constructor(private readonly posts: PostService) {}

  @Get()
  @ApiOperation({ summary: 'Posts, newest first, with the caller\'s like and bookmark state' })
  @ApiOkResponse({ type: [PostDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  async listPosts(@CurrentCaller() caller: Caller, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<PostDto[]> {
    return sendPage(reply, await this.posts.list(caller, query));
  }

  @Post()
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({ summary: 'Share a post as the signed-in user' })
  @ApiCreatedResponse({ type: PostDto })
  @ApiBadRequestResponse({ description: "'Please enter something to share' (blank), longer than 5,000 characters, unknown field" })
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  createPost(@CurrentCaller() caller: SignedInCaller, @Body() dto: PostContentDto): Promise<PostDto> {
    return this.posts.create(caller, dto.content, dto.sensitive);
  }

  @Get(':id')
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'One post' })
  @ApiOkResponse({ type: PostDto })
  @ApiNotFoundResponse(NOT_FOUND)
  getPost(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PostDto> {
    return this.posts.get(caller, id);
  }

  @Put(':id')
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Change the text of one of your posts' })
  @ApiOkResponse({ type: PostDto })
  @ApiBadRequestResponse({ description: 'Blank or too long text, unknown field' })
  @ApiForbiddenResponse({ description: 'Only the author can edit this post' })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  updatePost(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: PostContentDto): Promise<PostDto> {
    return this.posts.update(caller, id, dto.content, dto.sensitive);
  }

  @Delete(':id')
  @HttpCode(204)
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Delete one of your posts, with its likes, bookmarks and comments' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: 'Only the author can delete this post' })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  deletePost(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<void> {
    return this.posts.delete(caller, id);
  }

  @Get(':id/comments')
  @ApiParam(POST_ID)
  @ApiOperation({ summary: "A post's comments, oldest first" })
  @ApiOkResponse({ type: [PostCommentDto], headers: nextCursorHeaderDoc() })
  @ApiBadRequestResponse({ description: 'Bad limit or cursor, unknown query field' })
  @ApiNotFoundResponse(NOT_FOUND)
  async listPostComments(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: PageQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<PostCommentDto[]> {
    return sendPage(reply, await this.posts.comments(caller, id, query));
  }

  @Post(':id/comments')
  @HttpCode(201)
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Comment on a post as the signed-in user' })
  @ApiCreatedResponse({ type: PostCommentDto })
  @ApiBadRequestResponse({ description: 'Empty or too long comment, unknown field' })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  addPostComment(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string, @Body() dto: PostCommentContentDto): Promise<PostCommentDto> {
    return this.posts.addComment(caller, id, dto.content);
  }

  @Get(':id/liked')
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Whether the caller likes a post, and its like count' })
  @ApiOkResponse({ type: PostLikeStatusDto })
  @ApiNotFoundResponse(NOT_FOUND)
  postLiked(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PostLikeStatusDto> {
    return this.posts.liked(caller, id);
  }

  @Post(':id/like')
  @HttpCode(200)
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Like a post (liking it again changes nothing)' })
  @ApiOkResponse({ type: PostLikeStatusDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  likePost(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<PostLikeStatusDto> {
    return this.posts.setLike(caller, id, true);
  }

  @Delete(':id/like')
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Take back a like of a post (no like, no change)' })
  @ApiOkResponse({ type: PostLikeStatusDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  unlikePost(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<PostLikeStatusDto> {
    return this.posts.setLike(caller, id, false);
  }

  @Get(':id/bookmarked')
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Whether the caller bookmarked a post' })
  @ApiOkResponse({ type: PostBookmarkStatusDto })
  @ApiNotFoundResponse(NOT_FOUND)
  postBookmarked(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PostBookmarkStatusDto> {
    return this.posts.bookmarked(caller, id);
  }

  @Post(':id/bookmark')
  @HttpCode(200)
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Bookmark a post (bookmarking it again changes nothing)' })
  @ApiOkResponse({ type: PostBookmarkStatusDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  bookmarkPost(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<PostBookmarkStatusDto> {
    return this.posts.setBookmark(caller, id, true);
  }

  @Delete(':id/bookmark')
  @SignedIn()
  @ApiParam(POST_ID)
  @ApiOperation({ summary: 'Remove a bookmark of a post (none, no change)' })
  @ApiOkResponse({ type: PostBookmarkStatusDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiUnauthorizedResponse({ description: 'Not signed in' })
  unbookmarkPost(@CurrentCaller() caller: SignedInCaller, @Param('id') id: string): Promise<PostBookmarkStatusDto> {
    return this.posts.setBookmark(caller, id, false);
  }
}
